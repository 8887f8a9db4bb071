import ViewfinderCore
import ViewfinderSystem

/// Carries a data-in phase from the session's I/O thread to an async consumer in chunks, at most ``capacity`` of
/// them waiting at a time.
///
/// The I/O thread gathers slices into chunks and blocks while the consumer is ``capacity`` chunks behind, so a slow
/// consumer slows the transfer (the socket fills and the camera waits) instead of growing memory. The consumer
/// takes chunks with ``next()``; when it stops (it threw, or its task was cancelled) it calls ``stop(_:)``, and
/// the I/O thread's next slice throws that error, which drains the rest of the phase.
final class PTPChunkHandoff: Sendable {
    private struct State {
        var ready: [[UInt8]] = []
        /// The chunk being gathered on the I/O thread.
        var gathering: [UInt8] = []
        var finished = false
        /// Why the transfer ended early: the phase failed, or the consumer stopped.
        var failure: (any Error)?
        var consumerStopped = false
        var waitingConsumer: CheckedContinuation<[UInt8]?, any Error>?
        /// The bytes the phase announced, once known.
        var totalBytes: Int?
    }

    /// The most chunks waiting for the consumer.
    let capacity: Int
    private let chunkSize: Int
    private let state = Locked(State())
    private let producer = ThreadParker()

    /// Creates a handoff of chunks of `chunkSize` bytes (the last may be shorter), `capacity` of them at most
    /// waiting.
    init(chunkSize: Int, capacity: Int = 2) {
        self.chunkSize = max(chunkSize, 1)
        self.capacity = max(capacity, 1)
    }

    // MARK: The I/O thread's side

    /// Adds a slice of the phase, handing on each full chunk; blocks while ``capacity`` chunks wait.
    ///
    /// - Throws: The error the consumer stopped with.
    func append(_ slice: UnsafeRawBufferPointer) throws {
        var rest = slice
        while !rest.isEmpty {
            let resumption: (CheckedContinuation<[UInt8]?, any Error>, [UInt8])? = try state.withLock { state in
                if state.consumerStopped { throw state.failure ?? CancellationError() }
                if state.gathering.isEmpty { state.gathering.reserveCapacity(chunkSize) }
                let taken = min(chunkSize - state.gathering.count, rest.count)
                state.gathering.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<taken]))
                rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
                guard state.gathering.count == chunkSize else { return nil }
                return Self.handOn(&state)
            }
            if let (consumer, chunk) = resumption { consumer.resume(returning: chunk) }
            try waitForRoom()
        }
    }

    /// Records the phase's announced length, for the consumer's progress.
    func announce(totalBytes: Int?) {
        state.withLock { if $0.totalBytes == nil { $0.totalBytes = totalBytes } }
    }

    /// Ends the phase: hands on the last, shorter chunk, then the end; or, with `error`, the failure.
    func finish(throwing error: (any Error)? = nil) {
        let resumption = state.withLock {
            state -> (CheckedContinuation<[UInt8]?, any Error>, Result<[UInt8]?, any Error>)? in
            var last: [UInt8]?
            if let error {
                state.failure = state.failure ?? error
            } else if !state.gathering.isEmpty {
                last = state.gathering
                state.gathering = []
            }
            state.finished = true
            // A consumer waits only when nothing is ready.
            guard let consumer = state.waitingConsumer else {
                if let last { state.ready.append(last) }
                return nil
            }
            state.waitingConsumer = nil
            return (consumer, error.map { .failure($0) } ?? .success(last))
        }
        if let (consumer, result) = resumption { consumer.resume(with: result) }
    }

    /// Queues the gathered chunk, or gives it straight to a waiting consumer.
    private static func handOn(_ state: inout State) -> (CheckedContinuation<[UInt8]?, any Error>, [UInt8])? {
        let chunk = state.gathering
        state.gathering = []
        if let consumer = state.waitingConsumer {
            state.waitingConsumer = nil
            return (consumer, chunk)
        }
        state.ready.append(chunk)
        return nil
    }

    private func waitForRoom() throws {
        while true {
            let full = try state.withLock { state in
                if state.consumerStopped { throw state.failure ?? CancellationError() }
                return state.ready.count >= capacity
            }
            guard full else { return }
            producer.park()
        }
    }

    // MARK: The consumer's side

    /// The next chunk, or `nil` at the end of the phase.
    ///
    /// - Throws: What the phase failed with.
    func next() async throws -> [UInt8]? {
        try await withCheckedThrowingContinuation { continuation in
            let result: Result<[UInt8]?, any Error>? = state.withLock { state in
                if !state.ready.isEmpty { return .success(state.ready.removeFirst()) }
                if let failure = state.failure { return .failure(failure) }
                if state.finished { return .success(nil) }
                state.waitingConsumer = continuation
                return nil
            }
            if let result {
                continuation.resume(with: result)
            }
            producer.unpark()
        }
    }

    /// The bytes the phase announced, when it did.
    var totalBytes: Int? { state.withLock { $0.totalBytes } }

    /// Stops the transfer from the consumer's side: the I/O thread's next slice throws `error`.
    func stop(_ error: any Error) {
        state.withLock { state in
            state.consumerStopped = true
            state.failure = state.failure ?? error
            state.ready = []
        }
        producer.unpark()
    }
}
