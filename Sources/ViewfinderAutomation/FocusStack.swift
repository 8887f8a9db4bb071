import ViewfinderCore

/// Focus stacking: pictures at focus positions a set number of focus-motor steps apart, from the lens's current focus
/// towards the camera or towards infinity.
///
/// Live view stays on while the stack runs, as cameras drive their focus only in live view, and each picture is
/// taken without focusing. The first picture is at the current focus; the focus then moves
/// ``stepsBetweenShots`` steps of ``stepSize`` before each next one, so the last is
/// `(shots - 1) × stepsBetweenShots` steps away. A lens that reaches the end of its travel ends the stack early
/// with ``AutomationEvent/focusStopped(frame:reason:)``.
///
/// ```swift
/// let stack = FocusStack(shots: 20, stepsBetweenShots: 2, stepSize: .medium, direction: .towardsInfinity)
/// for try await event in stack.start(on: camera).events {
///     print(event)
/// }
/// ```
public struct FocusStack: Sendable, AutomationWork {
    /// How many pictures to take.
    public var shots: Int
    /// How many focus steps to take between pictures.
    public var stepsBetweenShots: Int
    /// The size of each focus step.
    public var stepSize: FocusDriveAmount
    /// Which way the focus moves.
    public var direction: FocusDriveDirection
    /// Where to save each picture's files; `nil` leaves them on the camera's card.
    public var directory: String?
    /// How long to wait for the camera to report a picture's file.
    public var fileTimeout: Duration

    /// Creates a focus stack.
    public init(
        shots: Int, stepsBetweenShots: Int = 1, stepSize: FocusDriveAmount = .small,
        direction: FocusDriveDirection = .towardsInfinity, directory: String? = nil,
        fileTimeout: Duration = .seconds(30)
    ) {
        self.shots = shots
        self.stepsBetweenShots = stepsBetweenShots
        self.stepSize = stepSize
        self.direction = direction
        self.directory = directory
        self.fileTimeout = fileTimeout
    }

    /// Starts the stack on `camera`.
    ///
    /// The events throw `ViewfinderError/Code/invalidArgument` for a stack without shots or steps,
    /// `ViewfinderError/Code/notAvailable` for a camera that cannot drive its focus or take pictures, and what the
    /// camera answered.
    public func start(on camera: any Camera) -> AutomationRun {
        started(on: camera)
    }

    func run(on camera: any Camera, report: @escaping @Sendable (AutomationEvent) -> Void) async throws {
        guard shots > 0, stepsBetweenShots > 0 else {
            throw ViewfinderError(.invalidArgument, "a focus stack needs at least one shot and one step between shots")
        }
        guard camera.supportedFunctionality.contains(.directFocusDrive) else {
            throw ViewfinderError(.notAvailable, "the camera cannot drive its focus in steps")
        }
        var taker = try FrameTaker(camera: camera, directory: directory, fileTimeout: fileTimeout)
        defer { taker.finish() }
        try await LiveViewHold.run(on: camera) {
            for frame in 1...shots {
                try await taker.take(frame: frame, report: report)
                guard frame < shots else { break }
                for step in 0..<stepsBetweenShots {
                    do {
                        try await camera.driveFocus(stepSize, towards: direction)
                    } catch let error as ViewfinderError where error.code == .notAvailable {
                        if step > 0 { report(.focusMoved(frame: frame, steps: step)) }
                        report(.focusStopped(frame: frame, reason: error.message))
                        return
                    }
                }
                report(.focusMoved(frame: frame, steps: stepsBetweenShots))
            }
        }
    }
}
