import ViewfinderSystem

/// Runs async operations one after another, in call order: each starts once the one before has ended.
///
/// Dialects use it where the camera's answers must be taken in the order they were asked for, such as event polls
/// whose records are changes to apply in turn, or live view that one user starts and another ends.
final class PTPSerialTasks: Sendable {
    /// The end of the chain: a task that finishes when the last operation queued has.
    private let tail = Locked<Task<Void, Never>?>(nil)

    /// Runs `body` after every operation queued before it, and returns what it returns.
    func run<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let task = tail.withLock { tail -> Task<Result, any Error> in
            let previous = tail
            let task = Task {
                await previous?.value
                return try await body()
            }
            tail = Task { _ = try? await task.value }
            return task
        }
        return try await task.value
    }
}
