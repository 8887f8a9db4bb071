import ViewfinderCore

/// An intervalometer: a number of frames, one every interval, each a picture or a bulb exposure of a set length.
///
/// Frame `n` is due `n` intervals after the first, by a monotonic clock, however long the frames before it took, so
/// the schedule does not drift. A frame whose time has passed by more than a quarter interval when the camera is ready
/// (a long exposure, a slow card) is skipped and reported as ``AutomationEvent/skipped(frame:lateness:)``, rather
/// than taken late and bunched up with the next.
///
/// ```swift
/// let timelapse = Timelapse(frames: 360, interval: .seconds(10), directory: "/home/me/timelapse")
/// for try await event in timelapse.start(on: camera).events {
///     if case .saved(let frame, _, let path) = event { print("frame \(frame): \(path)") }
/// }
/// ```
public struct Timelapse: Sendable {
    /// How many frames to take.
    public var frames: Int
    /// The time from the start of one frame to the start of the next.
    public var interval: Duration
    /// How long to hold the shutter open for each frame, for bulb exposures with the shutter speed at bulb; `nil`
    /// takes each picture at the camera's shutter speed.
    public var bulbExposure: Duration?
    /// Where to save each frame's files; `nil` leaves them on the camera's card.
    public var directory: String?
    /// How long to wait for the camera to report a frame's file.
    public var fileTimeout: Duration

    /// Creates a timelapse.
    public init(
        frames: Int, interval: Duration, bulbExposure: Duration? = nil, directory: String? = nil,
        fileTimeout: Duration = .seconds(30)
    ) {
        self.frames = frames
        self.interval = interval
        self.bulbExposure = bulbExposure
        self.directory = directory
        self.fileTimeout = fileTimeout
    }

    /// Starts the timelapse on `camera`, timed by the continuous clock.
    ///
    /// The events throw `ViewfinderError/Code/invalidArgument` for a timelapse without frames or interval,
    /// `ViewfinderError/Code/notAvailable` for a camera that cannot take its pictures, and what the camera
    /// answered.
    public func start(on camera: any Camera) -> AutomationRun {
        start(on: camera, clock: ContinuousClock())
    }

    /// Starts the timelapse on `camera`, timed by `clock`.
    public func start<C: Clock>(on camera: any Camera, clock: C) -> AutomationRun where C.Duration == Duration {
        AutomationRun { [self] report in try await run(on: camera, clock: clock, report: report) }
    }

    private func run<C: Clock>(
        on camera: any Camera, clock: C, report: @escaping @Sendable (AutomationEvent) -> Void
    ) async throws where C.Duration == Duration {
        guard frames > 0, interval > .zero else {
            throw ViewfinderError(.invalidArgument, "a timelapse needs at least one frame and an interval above zero")
        }
        if let bulbExposure, bulbExposure <= .zero {
            throw ViewfinderError(.invalidArgument, "a bulb exposure must last longer than zero")
        }
        var taker = try FrameTaker(
            camera: camera, directory: directory, fileTimeout: fileTimeout, bulb: bulbExposure != nil)
        defer { taker.finish() }
        let schedule = TimelapseSchedule(frames: frames, interval: interval)
        let start = clock.now
        var frame = 0
        while true {
            switch schedule.step(for: frame, at: start.duration(to: clock.now)) {
            case .done:
                return
            case .wait(let delay):
                report(.waiting(frame: frame + 1, delay: delay))
                try await clock.sleep(until: start.advanced(by: interval * frame), tolerance: nil)
            case .skip(let lateness):
                report(.skipped(frame: frame + 1, lateness: lateness))
                frame += 1
            case .take:
                try await taker.take(frame: frame + 1, bulb: bulbExposure, report: report)
                frame += 1
            }
        }
    }
}
