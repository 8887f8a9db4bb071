/// How far the live view is magnified: a factor of 1 shows the whole picture, a factor of 5 a fifth of its width and
/// height, enlarged to the frame's size.
///
/// ```swift
/// try await camera.setLiveViewZoomLevel(LiveViewZoomLevel(zoomFactor: 5))
/// // … check the focus …
/// try await camera.setLiveViewZoomLevel(.none)
/// ```
///
/// ``Camera/liveViewZoomLevel`` holds the level a camera shows, with a name where the camera reports its own, such as
/// a Nikon's "50%".
public struct LiveViewZoomLevel: Sendable, Hashable, CustomStringConvertible {
    /// The magnification: 1 for none, 5 for five times; 0 when the camera names a level without saying how far it
    /// magnifies.
    public let zoomFactor: Int
    /// The camera's own name for the level, such as a Nikon's "50%"; `nil` for a level known only by its factor.
    public let name: String?

    /// Creates a level that magnifies the picture `zoomFactor` times.
    public init(zoomFactor: Int) {
        self.zoomFactor = zoomFactor
        name = nil
    }

    /// Creates a level the camera names, magnifying `zoomFactor` times (0 when the camera does not say).
    public init(zoomFactor: Int, name: String) {
        self.zoomFactor = zoomFactor
        self.name = name
    }

    /// Whether the live view shows only part of the picture: a factor above 1, or a level the camera names without a
    /// factor.
    public var isZoomedIn: Bool { zoomFactor == 0 ? name != nil : zoomFactor > 1 }

    /// The level as its name, or as `5x`.
    public var description: String { name ?? "\(zoomFactor)x" }

    /// The whole picture, not magnified.
    public static let none = LiveViewZoomLevel(zoomFactor: 1)
}
