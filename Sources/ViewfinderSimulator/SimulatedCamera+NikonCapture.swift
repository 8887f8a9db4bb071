import ViewfinderPTP

extension SimulatedCamera {
    /// The exposure time a Nikon gives bulb: `0xFFFFFFFF`.
    static let nikonBulb: UInt32 = 0xFFFF_FFFF

    /// Answers Nikon's host-controlled capture, as libgphoto2's `bulb` drives it: ChangeCameraMode, then
    /// InitiateCaptureRecInMedia, which holds the shutter open until TerminateCapture when the exposure time is bulb
    /// and takes a timed picture otherwise.
    func respondToNikonCapture(_ request: SimulatorRequest, in context: SimulatorSessionContext) -> SimulatorReply {
        switch request.code {
        case .nikonChangeCameraMode:
            guard let mode = request.parameter(0), mode <= 1 else { return SimulatorReply(code: .invalidParameter) }
            return .ok
        case .nikonInitiateCaptureRecInMedia:
            guard let focus = request.parameter(0), focus >= 0xFFFF_FFFE, let media = request.parameter(1), media <= 1
            else { return SimulatorReply(code: .invalidParameter) }
            let bulb = state.withLock { $0.properties[.exposureTime]?.value == .uint32(Self.nikonBulb) }
            return startCapture(transactionID: request.transactionID, held: bulb, in: context)
                ? .ok : SimulatorReply(code: .deviceBusy)
        default:
            releaseHeldShutter(in: context)
            return .ok
        }
    }
}
