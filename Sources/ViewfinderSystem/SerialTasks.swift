/// Runs async operations one after another, in the order they were added: each starts once the one before has ended.
///
/// Used where work must happen in the order it was asked for: a V4L2 source's starts and stops, a dialect's event
/// polls whose records are changes to apply in turn, live view that one user starts and another ends.
///
/// ```swift
/// let serial = SerialTasks()
/// serial.add { await source.stop() }
/// let frame = try await serial.run { try await source.nextFrame() }
/// ```
package final class SerialTasks: Sendable {
    /// The end of the chain: a task that finishes when the last operation added has.
    private let tail = Locked<Task<Void, Never>?>(nil)

    /// Creates an empty queue.
    package init() {}

    /// Adds `operation`, which starts once every operation added before it has ended, without waiting for it.
    package func add(_ operation: @escaping @Sendable () async -> Void) {
        tail.withLock { tail in
            let previous = tail
            tail = Task {
                await previous?.value
                await operation()
            }
        }
    }

    /// Adds `operation` and returns what it returns, or throws what it throws, once it has run.
    package func run<Value: Sendable, Failure: Error>(
        _ operation: @escaping @Sendable () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let outcome: Result<Value, Failure> = await withCheckedContinuation { continuation in
            add {
                do throws(Failure) {
                    continuation.resume(returning: .success(try await operation()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try outcome.get()
    }
}
