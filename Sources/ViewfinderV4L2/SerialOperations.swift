import ViewfinderSystem

/// Runs async operations one after another, in the order they were added, each to its end before the next begins.
final class SerialOperations: Sendable {
    private let last = Locked<Task<Void, Never>?>(nil)

    /// Adds `operation`; it starts once every operation added before it has finished.
    func add(_ operation: @escaping @Sendable () async -> Void) {
        last.withLock { last in
            let previous = last
            last = Task {
                await previous?.value
                await operation()
            }
        }
    }

    /// Adds `operation` and returns its result once it has run.
    func run<Result: Sendable>(_ operation: @escaping @Sendable () async -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            add { continuation.resume(returning: await operation()) }
        }
    }
}
