/// What a ``LiveViewPublisher`` needs from its camera: starting live view, fetching one frame, ending it.
///
/// The publisher decides when: it starts live view at the first demand, fetches one frame per unit of demand, and
/// ends live view after the last subscriber has left. The backend only talks to the camera:
///
/// ```swift
/// final class MyCamera: Camera, LiveViewBackend {
///     lazy var liveViewPublisher = LiveViewPublisher(backend: self)
///
///     func startLiveView(settings: LiveViewSettings) async throws {
///         try await session.send(.startLiveView)
///     }
///
///     func liveViewFrame(settings: LiveViewSettings) async throws -> LiveViewFrame {
///         let jpeg = try await session.send(.getLiveViewImage)
///         return LiveViewFrame(
///             jpegData: jpeg, pixelSize: size(of: jpeg), timestamp: .now(), sequenceNumber: nextNumber(),
///             pixelBuffer: settings.skipsImageDecoding ? nil : try decode(jpeg))
///     }
///
///     func endLiveView() async {
///         try? await session.send(.endLiveView)
///     }
/// }
/// ```
///
/// Calls come one at a time, from the publisher's own task. That task runs on ``preferredExecutor`` when the
/// backend names one, such as the thread its camera's I/O runs on, so that fetching a frame wakes no other thread.
public protocol LiveViewBackend: AnyObject, Sendable {
    /// Starts live view on the camera, returning once frames can be fetched.
    ///
    /// The publisher retries a failed start a few times, unless the error's code is
    /// ``ViewfinderError/Code/notConnected``, ``ViewfinderError/Code/notAvailable``,
    /// ``ViewfinderError/Code/disconnected`` or ``ViewfinderError/Code/cancelled``.
    func startLiveView(settings: LiveViewSettings) async throws

    /// Fetches the camera's next live view frame, decoded unless `settings` says to skip decoding.
    ///
    /// Throwing ends live view for the subscribers, with the error.
    func liveViewFrame(settings: LiveViewSettings) async throws -> LiveViewFrame

    /// Ends live view on the camera; errors are the backend's to ignore.
    func endLiveView() async

    /// The executor the publisher's task should run on, or `nil` for Swift's global executor.
    ///
    /// Name the thread the backend's own calls run on, when it has one: the publisher's task then submits work to
    /// that thread and is resumed on it, with no other thread woken for each frame. Subscribers then receive frames
    /// on that thread, so they must hand long work off.
    var preferredExecutor: (any TaskExecutor)? { get }
}

extension LiveViewBackend {
    /// No preference: the publisher's task runs on Swift's global executor.
    public var preferredExecutor: (any TaskExecutor)? { nil }
}
