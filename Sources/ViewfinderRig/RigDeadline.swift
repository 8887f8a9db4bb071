import ViewfinderCore
import ViewfinderSystem

/// Runs one camera's part of a rig operation with a time limit.
enum RigDeadline {
    /// Runs `operation`, failing with `ViewfinderError/Code/timeout` when it has not finished within `limit`.
    ///
    /// On a timeout the operation's task is cancelled and left to end on its own (the camera's own timeouts bound
    /// it); the caller goes on at once. Errors that are not `ViewfinderError`s become one that names them.
    static func run<Value: Sendable>(
        _ limit: Duration, doing what: String, _ operation: @escaping @Sendable () async throws -> Value
    ) async -> Result<Value, ViewfinderError> {
        let once = Once<Value>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                once.set(continuation)
                let work = Task {
                    do {
                        once.finish(.success(try await operation()))
                    } catch let error as ViewfinderError {
                        once.finish(.failure(error))
                    } catch is CancellationError {
                        once.finish(.failure(ViewfinderError(.cancelled, "cancelled while trying to \(what)")))
                    } catch {
                        once.finish(.failure(ViewfinderError(.io, "could not \(what): \(error)")))
                    }
                }
                let timer = Task {
                    try? await Task.sleep(for: limit)
                    guard !Task.isCancelled else { return }
                    if once.finish(.failure(ViewfinderError(.timeout, "could not \(what) within \(limit)"))) {
                        work.cancel()
                    }
                }
                once.setTasks(work: work, timer: timer)
            }
        } onCancel: {
            once.finish(.failure(ViewfinderError(.cancelled, "cancelled while trying to \(what)")))
        }
    }

    /// The first result of a deadline race, handed to the waiting caller exactly once.
    private final class Once<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Result<Value, ViewfinderError>, Never>?
            var result: Result<Value, ViewfinderError>?
            var work: Task<Void, Never>?
            var timer: Task<Void, Never>?
        }

        private let state = Locked(State())

        func set(_ continuation: CheckedContinuation<Result<Value, ViewfinderError>, Never>) {
            let ready = state.withLock { state -> Result<Value, ViewfinderError>? in
                if let result = state.result { return result }
                state.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }

        func setTasks(work: Task<Void, Never>, timer: Task<Void, Never>) {
            let finished = state.withLock { state -> Bool in
                guard state.result == nil else { return true }
                (state.work, state.timer) = (work, timer)
                return false
            }
            if finished {
                work.cancel()
                timer.cancel()
            }
        }

        /// Records `result` when it is the first; returns whether it was.
        @discardableResult
        func finish(_ result: Result<Value, ViewfinderError>) -> Bool {
            let taken = state.withLock {
                state -> (
                    CheckedContinuation<Result<Value, ViewfinderError>, Never>?, Task<Void, Never>?, Task<Void, Never>?
                )? in
                guard state.result == nil else { return nil }
                state.result = result
                defer { (state.continuation, state.work, state.timer) = (nil, nil, nil) }
                return (state.continuation, state.work, state.timer)
            }
            guard let (continuation, work, timer) = taken else { return false }
            timer?.cancel()
            if case .failure = result { work?.cancel() }
            continuation?.resume(returning: result)
            return true
        }
    }
}
