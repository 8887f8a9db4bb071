import Dispatch

/// Runs async work for an API that reports through a completion handler.
enum AsyncCompletion {
    /// Runs `operation` in a task and calls `completion` on `queue` with its error, or `nil` once it succeeds.
    static func run(
        on queue: DispatchQueue,
        _ operation: @escaping @Sendable () async throws -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        run(on: queue, operation) { (result: Result<Void, any Error>) in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
        }
    }

    /// Runs `operation` in a task and calls `completion` on `queue` with its value or its error.
    static func run<Value: Sendable>(
        on queue: DispatchQueue,
        _ operation: @escaping @Sendable () async throws -> Value,
        completion: @escaping @Sendable (Result<Value, any Error>) -> Void
    ) {
        Task {
            let result: Result<Value, any Error>
            do {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            queue.async { completion(result) }
        }
    }
}
