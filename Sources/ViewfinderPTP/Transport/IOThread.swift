import Dispatch
import ViewfinderConcurrency

#if canImport(Glibc)
import Glibc
#endif

/// A dedicated thread that runs submitted jobs one after another.
///
/// Blocking socket calls run here rather than on Swift's cooperative thread pool, whose few threads must never wait
/// on the network. Async callers submit a job that resumes their continuation when it is done.
package final class IOThread: Sendable {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var isStopping = false
    }

    private let queue = Locked(Queue())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Starts a thread named `name` (at most 15 bytes of it are kept, as in `ptp15740-cmd`).
    package init(name: String = "viewfinder-io") {
        Self.detach(name: name) { [self] in run() }
    }

    /// Runs `body` once on a new detached thread named `name`.
    ///
    /// - Precondition: The system grants a new thread; running out of threads ends the process.
    package static func detach(name: String = "viewfinder-io", _ body: @escaping @Sendable () -> Void) {
        do {
            try PlatformThread.detach(name: name, body)
        } catch {
            preconditionFailure("\(error)")
        }
    }

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
