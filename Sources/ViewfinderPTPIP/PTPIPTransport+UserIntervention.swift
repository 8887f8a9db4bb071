import ViewfinderCore
import ViewfinderSystem

extension PTPIPTransport {
    /// How often a wait on the camera's user checks whether it was cancelled.
    static let userInterventionCheckInterval = Duration.milliseconds(50)

    /// Waits for the camera's answer to InitCommandRequest, telling `userIntervention` when it is slow to come.
    ///
    /// Canon, Nikon and Sony bodies over WiFi leave a computer they do not know waiting for the answer while they ask
    /// their user to confirm it on the screen, and nothing on the wire says so. A handshake left unanswered for
    /// ``Configuration/userInterventionDelay`` is therefore taken as such a question: the handler hears
    /// `CameraUserInterventionEvent/required(_:)`, and the wait goes on, up to
    /// ``Configuration/userInterventionTimeout`` in all, until the camera answers or the intervention is cancelled;
    /// the handler then hears `CameraUserInterventionEvent/resolved`. Returns once the answer can be read.
    ///
    /// - Throws: `ViewfinderError/Code/cancelled` once the intervention is cancelled, and
    ///   `ViewfinderError/Code/timeout` when the camera's user does not answer in time; what the socket throws.
    static func awaitHandshakeAnswer(
        on command: PTPIPConnection, endpoint: String, configuration: Configuration,
        userIntervention: @Sendable (CameraUserInterventionEvent) -> Void
    ) throws(ViewfinderError) {
        let activity = "waiting for \(endpoint) to accept the connection"
        do {
            try command.waitForData(timeout: configuration.userInterventionDelay, while: activity)
            return
        } catch  where error.code == .timeout {}
        let cancellation = CameraUserInterventionCancellation()
        let deadline = ContinuousClock.now + configuration.userInterventionTimeout
        userIntervention(
            .required(
                CameraUserIntervention(
                    .confirmOnCamera,
                    message: "Confirm the connection on the camera's screen: it asks whether to let "
                        + "'\(configuration.clientName)' connect.",
                    deadline: configuration.userInterventionTimeout, cancellation: cancellation)))
        defer { userIntervention(.resolved) }
        while true {
            if cancellation.isCancelled {
                throw ViewfinderError(
                    .cancelled,
                    "the connection to \(endpoint) was cancelled while the camera asked its user to confirm it")
            }
            let left = deadline - .now
            if left <= .zero {
                throw ViewfinderError(
                    .timeout,
                    "nobody confirmed the connection on the screen of the camera at \(endpoint) within "
                        + "\(configuration.userInterventionTimeout); connect again and confirm it on the camera")
            }
            do {
                try command.waitForData(timeout: min(left, userInterventionCheckInterval), while: activity)
                return
            } catch  where error.code == .timeout {}
        }
    }
}
