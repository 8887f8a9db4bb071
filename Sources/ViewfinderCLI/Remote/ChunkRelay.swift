import Dispatch
import ViewfinderSystem

/// Hands a download's chunks from the task that fetches them from the camera to the thread that sends them to a
/// browser.
///
/// The task waits while ``capacity`` chunks wait for the thread, so the file goes at the pace of the slower side and
/// memory stays at a few chunks however large the file is. The thread waits for each chunk with a deadline, so a
/// camera that falls silent ends the transfer however long it has run.
///
/// ```swift
/// let relay = ChunkRelay()
/// Task {
///     do {
///         try await files.download(item) { chunk, _ in try await relay.put(chunk) }
///         relay.finish(nil)
///     } catch {
///         relay.finish(error)
///     }
/// }
/// while case .chunk(let bytes)? = relay.take(until: .now + .seconds(60)) { send(bytes) }
/// relay.cancel()
/// ```
final class ChunkRelay: Sendable {
    /// What the thread takes next.
    enum Item {
        /// The next bytes of the file.
        case chunk([UInt8])
        /// The file is complete.
        case end
        /// The download failed.
        case failure(any Error)
    }

    /// The most chunks that wait for the thread.
    static let capacity = 2

    private struct State {
        var chunks: [[UInt8]] = []
        /// The task, waiting for room.
        var producer: CheckedContinuation<Void, any Error>?
        var ending: Item?
        var cancelled = false
    }

    private let state = Locked(State())
    private let ready = DispatchSemaphore(value: 0)

    /// Leaves `chunk` for the thread, waiting while ``capacity`` chunks wait already.
    ///
    /// - Throws: `CancellationError` once the thread has given up (``cancel()``).
    func put(_ chunk: [UInt8]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let outcome: Result<Void, any Error>? = state.withLock { state in
                guard !state.cancelled else { return .failure(CancellationError()) }
                state.chunks.append(chunk)
                guard state.chunks.count >= Self.capacity else { return .success(()) }
                state.producer = continuation
                return nil
            }
            ready.signal()
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    /// Ends the relay once the chunks left have been taken: the file is complete, or it failed with `error`.
    func finish(_ error: (any Error)?) {
        state.withLock { $0.ending = error.map(Item.failure) ?? .end }
        ready.signal()
    }

    /// The next chunk, or how the download ended; `nil` when nothing came by `deadline`.
    ///
    /// Blocks the calling thread.
    func take(until deadline: ContinuousClock.Instant) -> Item? {
        while true {
            let (item, producer) = state.withLock { state -> (Item?, CheckedContinuation<Void, any Error>?) in
                guard !state.chunks.isEmpty else { return (state.ending, nil) }
                defer { state.producer = nil }
                return (.chunk(state.chunks.removeFirst()), state.producer)
            }
            producer?.resume()
            if let item { return item }
            guard ready.wait(timeout: DispatchTime(deadline)) == .success else { return nil }
        }
    }

    /// Gives up: drops the chunks that wait, and has the task's waiting and later ``put(_:)`` throw.
    func cancel() {
        let producer = state.withLock { state in
            state.cancelled = true
            state.chunks = []
            defer { state.producer = nil }
            return state.producer
        }
        producer?.resume(throwing: CancellationError())
    }
}
