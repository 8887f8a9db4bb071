import ViewfinderCore
import ViewfinderSystem

/// A driver's poll of its camera: a body run at an interval until the connection stops it or the body fails in a way
/// that ends the connection, for cameras whose API tells of changes only when asked.
///
/// A failure that says the camera answers but is busy or refuses for now (`deviceBusy`, `notAvailable`) polls again;
/// `notConnected`, the connection closing under the poll, ends it without an error.
///
/// ```swift
/// let poll = CameraPoll(every: .seconds(1))
/// let error = await poll.run { try await connection.readSettings() }  // until poll.stop()
/// ```
package final class CameraPoll: Sendable {
    private struct State {
        var task: Task<ViewfinderError?, Never>?
        var stopped = false
    }

    private let interval: Duration
    private let state = Locked(State())

    /// A poll at `interval`; nothing runs until ``run(_:)``.
    package init(every interval: Duration) {
        self.interval = interval
    }

    /// Runs `body` at the interval until ``stop()`` or a failure that ends the connection, which it returns.
    package func run(_ body: @escaping @Sendable () async throws -> Void) async -> ViewfinderError? {
        let task = Task { [interval] () -> ViewfinderError? in
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: interval)
                } catch {
                    return nil
                }
                do {
                    try await body()
                } catch let error as ViewfinderError where error.code == .notConnected {
                    return nil
                } catch let error as ViewfinderError where error.code == .deviceBusy || error.code == .notAvailable {
                    continue
                } catch {
                    return error as? ViewfinderError ?? ViewfinderError(.io, "polling the camera failed: \(error)")
                }
            }
            return nil
        }
        let stopped = state.withLock { state in
            state.task = task
            return state.stopped
        }
        if stopped { task.cancel() }
        return await task.value
    }

    /// Stops the poll, now or as soon as it starts.
    package func stop() {
        let task = state.withLock { state in
            state.stopped = true
            return state.task
        }
        task?.cancel()
    }
}
