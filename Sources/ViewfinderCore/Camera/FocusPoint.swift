/// One autofocus point or area of a camera: where it is, whether the camera focuses with it, and whether it found
/// focus.
///
/// ``FocusInfo/points`` and ``LiveViewGeometry/afAreas`` hold them, in their aspect's coordinates.
public struct FocusPoint: Sendable, Hashable {
    /// Where the point lies, in the coordinates of the aspect it is given in.
    public var rect: LiveViewRect
    /// Whether the camera focuses with this point: the selected point or area.
    public var isActive: Bool
    /// Whether the camera says this point is in focus; `false` where the camera does not say.
    public var hasFocus: Bool

    /// Creates a point.
    public init(rect: LiveViewRect, isActive: Bool, hasFocus: Bool = false) {
        self.rect = rect
        self.isActive = isActive
        self.hasFocus = hasFocus
    }
}
