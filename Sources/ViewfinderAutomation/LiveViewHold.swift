import ViewfinderCore
import ViewfinderReactive

/// Keeps a camera's live view on while work that needs it runs, such as driving the focus motor.
///
/// ```swift
/// try await LiveViewHold.run(on: camera) {
///     try await camera.driveFocus(.small, towards: .towardsInfinity)
/// }
/// ```
public enum LiveViewHold {
    /// Turns live view on, runs `body` once the first frame has come, and lets live view end afterwards.
    ///
    /// The live view publisher gives up on a live view that does not start after its attempts, so the wait for the
    /// first frame ends.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when live view ends before its first frame, the error that
    ///   made it fail, or what `body` throws.
    public static func run<Result>(on camera: any Camera, _ body: () async throws -> Result) async throws -> Result {
        let (events, continuation) = AsyncStream.makeStream(
            of: Subscribers.Completion<LiveViewTerminationReason>?.self, bufferingPolicy: .bufferingOldest(2))
        let subscription = camera.liveViewPublisher.sinkWithReadyHandler { completion in
            continuation.yield(completion)
        } receiveValue: { _, _ in
            continuation.yield(nil)
        }
        defer { subscription.cancel() }
        for await event in events {
            guard let completion = event else { break }
            guard case .failure(.failed(let error)) = completion else {
                throw ViewfinderError(.notAvailable, "live view ended before its first frame")
            }
            throw error
        }
        try Task.checkCancellation()
        return try await body()
    }
}
