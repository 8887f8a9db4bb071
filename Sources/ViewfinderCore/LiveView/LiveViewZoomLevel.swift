/// How far the live view is magnified: a factor of 1 shows the whole picture, a factor of 5 a fifth of its width and
/// height, enlarged to the frame's size.
///
/// ```swift
/// try await camera.setLiveViewZoomLevel(LiveViewZoomLevel(zoomFactor: 5))
/// // … check the focus …
/// try await camera.setLiveViewZoomLevel(.none)
/// ```
public struct LiveViewZoomLevel: Sendable, Hashable {
    /// The magnification: 1 for none, 5 for five times.
    public let zoomFactor: Int

    /// Creates a level that magnifies the picture `zoomFactor` times.
    public init(zoomFactor: Int) {
        self.zoomFactor = zoomFactor
    }

    /// Whether the live view shows only part of the picture.
    public var isZoomedIn: Bool { zoomFactor > 1 }

    /// The whole picture, not magnified.
    public static let none = LiveViewZoomLevel(zoomFactor: 1)
}
