/// A point in a live view frame's coordinate space (``LiveViewGeometry/aspect``), from its top-left corner.
public struct LiveViewPoint: Sendable, Hashable, CustomStringConvertible {
    /// The distance from the left edge.
    public var x: Int
    /// The distance from the top edge.
    public var y: Int

    /// Creates a point.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// The point as `X,Y`, as the command line takes it.
    public var description: String { "\(x),\(y)" }
}
