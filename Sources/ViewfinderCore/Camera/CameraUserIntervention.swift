import Synchronization

/// Something the camera's user must do before a connection can go on, such as confirming it on the camera's screen,
/// as Canon, Nikon and Sony bodies ask when a computer they do not know connects over WiFi.
///
/// ``Camera/connect(options:userIntervention:)`` hands it to its handler in
/// ``CameraUserInterventionEvent/required(_:)``: show ``message`` with a way to ``cancel()``, and take it down at
/// ``CameraUserInterventionEvent/resolved``.
public struct CameraUserIntervention: Sendable, CustomStringConvertible {
    /// What the user is asked to do.
    public enum Kind: Sendable, Hashable {
        /// Confirm the connection on the camera's screen (press OK), after which the camera remembers the computer.
        case confirmOnCamera
    }

    /// What the user is asked to do.
    public let kind: Kind
    /// What to show the user, such as `Confirm the connection on the camera's screen...`.
    public let message: String
    /// The longest the connection waits for the user before it fails with ``ViewfinderError/Code/timeout``.
    public let deadline: Duration
    private let cancellation: CameraUserInterventionCancellation

    /// Creates an intervention that `cancellation` ends.
    package init(
        _ kind: Kind, message: String, deadline: Duration, cancellation: CameraUserInterventionCancellation
    ) {
        self.kind = kind
        self.message = message
        self.deadline = deadline
        self.cancellation = cancellation
    }

    /// Gives up waiting for the user: the connection ends with ``ViewfinderError/Code/cancelled``.
    public func cancel() {
        cancellation.cancel()
    }

    /// The message.
    public var description: String { message }
}

/// What ``Camera/connect(options:userIntervention:)`` tells its handler.
public enum CameraUserInterventionEvent: Sendable {
    /// The camera waits for its user: show the intervention's message and a way to cancel.
    case required(CameraUserIntervention)
    /// The wait is over, however it ended (confirmed, cancelled, out of time): take the message down. The connection's
    /// outcome is what `connect` returns or throws.
    case resolved
}

/// Whether the user gave up waiting on an intervention; the connecting code checks it while it waits.
package final class CameraUserInterventionCancellation: Sendable {
    private let cancelled = Atomic(false)

    /// Creates one not cancelled.
    package init() {}

    /// Marks the wait as given up.
    package func cancel() {
        cancelled.store(true, ordering: .releasing)
    }

    /// Whether the wait was given up.
    package var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
}

/// The handler of the connection being made, for the transports that wait on the camera's user.
///
/// ``Camera/connect(options:userIntervention:)`` binds it around the connection; the task that opens the connection
/// inherits it, and an endpoint reads it before it leaves for its own thread.
package enum CameraUserInterventionHandler {
    /// A handler held as an object: a task-local value of a function type crashes optimized, statically linked
    /// builds in `swift_task_localValuePush`.
    package final class Box: Sendable {
        /// The handler.
        package let handle: @Sendable (CameraUserInterventionEvent) -> Void

        /// Holds `handle`.
        package init(_ handle: @escaping @Sendable (CameraUserInterventionEvent) -> Void) {
            self.handle = handle
        }
    }

    /// The handler of the connection this task makes, if it was given one.
    @TaskLocal package static var box: Box?

    /// The handler of the connection this task makes, if it was given one.
    package static var current: (@Sendable (CameraUserInterventionEvent) -> Void)? { box?.handle }
}
