/// A point in a live view frame's coordinate space (``LiveViewGeometry/aspect``), from its top-left corner.
public struct LiveViewPoint: Sendable, Hashable, CustomStringConvertible {
    /// The distance from the left edge.
    public var x: Int
    /// The distance from the top edge.
    public var y: Int

    /// Creates a point from its distances to the left and top edges.
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// The point as `X,Y`.
    public var description: String { "\(x),\(y)" }
}
