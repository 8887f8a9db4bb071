import Dispatch

/// A dedicated thread that runs submitted jobs one after another.
///
/// Blocking calls (sockets, devices) run here rather than on Swift's cooperative thread pool, whose few threads must
/// never wait on the network. Async callers submit a job that resumes their continuation when it is done:
///
/// ```swift
/// let thread = try IOThread(name: "ptp-cmd")
/// let answer = try await thread.run { try connection.exchange(request) }
/// thread.stop()
/// ```
package final class IOThread: Sendable {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var isStopping = false
    }

    private let queue = Locked(Queue())
    private let wakeUp = DispatchSemaphore(value: 0)
    private let thread: Locked<PlatformThread?> = Locked(nil)

    /// Starts a thread named `name` (at most 15 bytes of it are kept, as in `ptp15740-cmd`).
    ///
    /// - Throws: ``PlatformThread/StartError`` when the system grants no new thread.
    package init(name: String = "viewfinder-io") throws(PlatformThread.StartError) {
        let started = try PlatformThread(name: name) { [self] in run() }
        started.detach()
        thread.withLock { $0 = started }
    }

    /// Runs `body` once on a new detached thread named `name`.
    ///
    /// - Throws: ``PlatformThread/StartError`` when the system grants no new thread; `body` does not run then.
    package static func detach(name: String = "viewfinder-io", _ body: @escaping @Sendable () -> Void)
        throws(PlatformThread.StartError)
    {
        try PlatformThread.detach(name: name, body)
    }

    /// Runs a blocking `body` on a new thread of its own and returns its result, without holding up a thread of
    /// Swift's cooperative pool.
    ///
    /// - Throws: What `body` throws, or ``PlatformThread/StartError`` when no thread could be started.
    package static func run<Result: Sendable>(
        name: String = "viewfinder-io", _ body: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            do {
                try detach(name: name) { continuation.resume(with: Swift.Result { try body() }) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    /// Whether the caller is running on this thread.
    package var isCurrent: Bool { thread.withLock { $0?.isCurrent ?? false } }

    private func run() {
        while true {
            wakeUp.wait()
            let job: (@Sendable () -> Void)? = queue.withLock { queue in
                queue.jobs.isEmpty ? nil : queue.jobs.removeFirst()
            }
            if let job {
                job()
            } else if queue.withLock({ $0.isStopping && $0.jobs.isEmpty }) {
                return
            }
        }
    }

    /// Queues `job`.
    ///
    /// - Returns: `false` when the thread is stopping and the job will not run.
    @discardableResult
    package func submit(_ job: @escaping @Sendable () -> Void) -> Bool {
        let accepted = queue.withLock { queue in
            guard !queue.isStopping else { return false }
            queue.jobs.append(job)
            return true
        }
        if accepted { wakeUp.signal() }
        return accepted
    }

    /// Runs `finalJob` after the jobs already queued, then ends the thread; later submissions are refused.
    package func stop(then finalJob: (@Sendable () -> Void)? = nil) {
        let first = queue.withLock { queue in
            guard !queue.isStopping else { return false }
            if let finalJob { queue.jobs.append(finalJob) }
            queue.isStopping = true
            return true
        }
        guard first else { return }
        if finalJob != nil { wakeUp.signal() }
        wakeUp.signal()
    }
}
