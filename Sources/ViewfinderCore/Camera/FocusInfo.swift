/// Where a camera's autofocus points are and which it uses: ``Camera/focusInfo``.
///
/// The points' rectangles are in ``aspect``'s coordinates, which for a camera whose live view frames carry their
/// geometry are the frames' ``LiveViewGeometry/aspect`` too.
///
/// ```swift
/// if let info = camera.focusInfo, let active = info.points.first(where: \.isActive) {
///     print("focusing at \(active.rect) of \(info.aspect)")
/// }
/// ```
public struct FocusInfo: Sendable, Hashable {
    /// The size of the coordinate space the points are given in.
    public var aspect: Dimensions
    /// The camera's autofocus points or areas: every point it reports, or the area it focuses with.
    public var points: [FocusPoint]

    /// Creates focus information.
    public init(aspect: Dimensions, points: [FocusPoint]) {
        self.aspect = aspect
        self.points = points
    }

    /// The points the camera focuses with.
    public var activePoints: [FocusPoint] { points.filter(\.isActive) }
}
