/// When a rig's camera was asked to take its picture, and when it reported the picture taken.
///
/// The spread of ``requested`` across a rig's cameras is how close together the rig fired them; each camera adds its
/// own shutter lag after that.
public struct ShutterRelease: Hashable, Sendable {
    /// When the shutter request went to the camera.
    public let requested: ContinuousClock.Instant
    /// When the camera reported the picture taken.
    public let completed: ContinuousClock.Instant

    /// Creates a release.
    public init(requested: ContinuousClock.Instant, completed: ContinuousClock.Instant) {
        self.requested = requested
        self.completed = completed
    }
}

extension RigReport where Success == ShutterRelease {
    /// How far apart the shutter requests went out: the latest request less the earliest, over the cameras that
    /// took their picture; zero for one camera or none.
    public var requestSpread: Duration {
        ShutterRelease.requestSpread(of: successes.map(\.value))
    }
}

extension ShutterRelease {
    /// The latest request of `releases` less the earliest; zero for one release or none.
    static func requestSpread(of releases: [ShutterRelease]) -> Duration {
        let times = releases.map(\.requested)
        guard let first = times.min(), let last = times.max() else { return .zero }
        return first.duration(to: last)
    }
}
