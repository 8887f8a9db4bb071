import ViewfinderCore
import ViewfinderSystem

/// Hands a connection's events to its dialect's handlers one at a time, in order, without holding up the reading of
/// the next event.
///
/// Reading events and handling them are apart: a handler may run transactions (re-reading a changed property, reading
/// a new file's information) and take a while, and the events behind it must still be seen at once, as the end of a
/// capture is (``PTPDialect/observe(_:)``). At most ``capacity`` events wait for their handler; beyond that the oldest
/// are dropped, and once the handlers have caught up the dialect is told that it missed events
/// (``PTPDialect/eventsWereMissed()``), as it is when the session itself dropped events its reader did not take in
/// time, so that it reads again what they would have said.
final class PTPEventQueue: Sendable {
    /// The most events waiting for their handlers.
    static let capacity = 64

    private let continuation: AsyncStream<PTPEvent>.Continuation
    private let dropped = Locked(0)
    private let worker: Task<Void, Never>

    /// Starts handling events for `dialect`, whose session is `session`.
    init(dialect: any PTPDialect, session: PTPSession) {
        let (events, continuation) = AsyncStream<PTPEvent>.makeStream(
            bufferingPolicy: .bufferingNewest(Self.capacity))
        self.continuation = continuation
        let dropped = dropped
        worker = Task {
            var missed = 0
            for await event in events {
                await dialect.handle(event)
                let now = dropped.withLock { $0 } + session.droppedEventCount
                if now != missed {
                    missed = now
                    await dialect.eventsWereMissed()
                }
            }
        }
    }

    deinit {
        continuation.finish()
    }

    /// Queues an event for its handler; drops the oldest waiting one when ``capacity`` are waiting.
    func enqueue(_ event: PTPEvent) {
        if case .dropped = continuation.yield(event) {
            dropped.withLock { $0 += 1 }
        }
    }

    /// Stops taking events, and waits for the handlers of those already queued.
    func finish() async {
        continuation.finish()
        await worker.value
    }
}
