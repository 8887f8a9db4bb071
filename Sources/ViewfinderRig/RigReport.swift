import ViewfinderCore

/// What one operation on a ``CameraRig`` came to: each camera's result, in the rig's order.
///
/// One camera failing never stops the others, so a report holds successes and failures side by side:
///
/// ```swift
/// let report = await rig.connect()
/// for failure in report.failures {
///     print("\(failure.camera): \(failure.error.message)")
/// }
/// ```
public struct RigReport<Success: Sendable>: Sendable {
    /// One camera's result.
    public struct Outcome: Sendable {
        /// The camera's name in the rig.
        public let camera: String
        /// What the camera's part gave, or the error that ended it.
        public let result: Result<Success, ViewfinderError>
        /// How long the camera's part took, from the start of the operation.
        public let duration: Duration

        /// Creates an outcome.
        public init(camera: String, result: Result<Success, ViewfinderError>, duration: Duration) {
            self.camera = camera
            self.result = result
            self.duration = duration
        }
    }

    /// Each camera's outcome, in the order of ``CameraRig/members``.
    public let outcomes: [Outcome]

    /// Creates a report.
    public init(outcomes: [Outcome]) {
        self.outcomes = outcomes
    }

    /// The cameras whose part succeeded, with what it gave.
    public var successes: [(camera: String, value: Success)] {
        outcomes.compactMap { outcome in
            guard case .success(let value) = outcome.result else { return nil }
            return (outcome.camera, value)
        }
    }

    /// The cameras whose part failed, with the error.
    public var failures: [(camera: String, error: ViewfinderError)] {
        outcomes.compactMap { outcome in
            guard case .failure(let error) = outcome.result else { return nil }
            return (outcome.camera, error)
        }
    }

    /// Whether every camera's part succeeded.
    public var allSucceeded: Bool { failures.isEmpty }

    /// The outcome of the camera named `camera`, or `nil` when the rig has no such camera.
    public subscript(camera: String) -> Outcome? {
        outcomes.first { $0.camera == camera }
    }
}
