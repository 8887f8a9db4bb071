/// A rectangle in a live view frame's coordinate space (``LiveViewGeometry/aspect``), from its top-left corner.
public struct LiveViewRect: Sendable, Hashable, CustomStringConvertible {
    /// The left edge.
    public var x: Int
    /// The top edge.
    public var y: Int
    /// The width.
    public var width: Int
    /// The height.
    public var height: Int

    /// Creates a rectangle from its top-left corner and its size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The rectangle as `WIDTHxHEIGHT+X+Y`.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
