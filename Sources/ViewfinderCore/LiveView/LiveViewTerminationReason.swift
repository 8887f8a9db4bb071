import ViewfinderReactive

/// Why a camera's live view ended for its subscribers.
///
/// A live view publisher finishes normally (`Subscribers/Completion/finished`) when live view ended as asked, for
/// example because the camera was disconnected with `disconnect()`, and fails with ``failed(_:)`` when it could not
/// start or the camera went away:
///
/// ```swift
/// camera.liveViewPublisher.sinkWithReadyHandler { completion in
///     switch completion {
///     case .finished: print("live view ended")
///     case .failure(let reason): print("live view failed: \(reason)")
///     }
/// } receiveValue: { frame, ready in ready() }
/// ```
public enum LiveViewTerminationReason: Error, Hashable, Sendable, CustomStringConvertible {
    /// Live view ended as asked; subscribers see `Subscribers/Completion/finished`.
    case endedNormally
    /// Live view failed to start, or the camera stopped delivering frames: the error says why.
    case failed(ViewfinderError)

    /// The completion subscribers receive for this reason.
    public var completion: Subscribers.Completion<LiveViewTerminationReason> {
        self == .endedNormally ? .finished : .failure(self)
    }

    /// "ended normally", or "failed:" and the error.
    public var description: String {
        switch self {
        case .endedNormally: return "ended normally"
        case .failed(let error): return "failed: \(error)"
        }
    }
}
