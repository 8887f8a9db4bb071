import ViewfinderPTP

/// What answers a simulator's clients: the simulated camera, or a real camera's recorded answers.
///
/// The simulator's transports (PTP/IP and the USB function) read requests, hand them to the responder, and send its
/// replies and events.
protocol SimulatorResponder: Sendable {
    /// What GetDeviceInfo answers, and how the camera names itself to clients and on the network.
    var deviceInfo: PTPDeviceInfo { get }

    /// Answers a request.
    func respond(to request: SimulatorRequest, in context: any SimulatorSessionContext) -> SimulatorReply

    /// Whether a request with `code` is followed by a data-out phase, for transports whose containers do not say.
    func expectsDataOut(_ code: UInt16) -> Bool

    /// A client's session began: starts what the camera does on its own while a client is connected.
    func sessionBegan(in pump: SimulatorEventPump)

    /// The client's session ended, however it ended.
    func endSession()
}

extension SimulatorResponder {
    func sessionBegan(in pump: SimulatorEventPump) {}
}
