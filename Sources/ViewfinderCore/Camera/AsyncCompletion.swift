import Dispatch

/// Runs async work for an API that reports through a completion handler.
enum AsyncCompletion {
    /// Runs `operation` in a task and calls `completion` on `queue` with its error, or `nil` once it succeeds.
    static func run(
        on queue: DispatchQueue,
        _ operation: @escaping @Sendable () async throws -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        Task {
            let failure: (any Error)?
            do {
                try await operation()
                failure = nil
            } catch {
                failure = error
            }
            queue.async { completion(failure) }
        }
    }
}
