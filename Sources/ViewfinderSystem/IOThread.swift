import Dispatch

/// A dedicated thread that runs submitted jobs one after another, jobs due at a deadline, and the tasks that prefer
/// it as their executor.
///
/// Blocking calls (sockets, devices) run here rather than on Swift's cooperative thread pool, whose few threads must
/// never wait on the network. Async callers submit a job that resumes their continuation when it is done:
///
/// ```swift
/// let thread = try IOThread(name: "ptp-cmd")
/// let answer = try await thread.run { try connection.exchange(request) }
/// thread.stop()
/// ```
///
/// A task that prefers the thread (`Task(executorPreference: thread)`) runs its code here too, so a task that
/// submits blocking work and waits for it stays on one thread: no other thread wakes to resume it. Such a task must
/// not block for long, as jobs wait behind it.
package final class IOThread: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        /// Jobs waiting for their deadline, the earliest first; equal deadlines keep the order they came in.
        var timers: [(deadline: ContinuousClock.Instant, job: @Sendable () -> Void)] = []
        var isStopping = false

        /// Moves the timers whose deadline has come to the end of the queue.
        mutating func takeDueTimers(now: ContinuousClock.Instant) {
            let due = timers.prefix { $0.deadline <= now }.count
            guard due > 0 else { return }
            jobs.append(contentsOf: timers[..<due].map(\.job))
            timers.removeFirst(due)
        }
    }

    /// What the thread does next.
    private enum Step {
        case run(@Sendable () -> Void)
        case sleep(until: ContinuousClock.Instant?)
        case exit
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

    /// Whether the caller is running on this thread; never once the thread has ended.
    package var isCurrent: Bool { thread.withLock { $0?.isCurrent ?? false } }

    private func run() {
        while true {
            let step = queue.withLock { queue -> Step in
                if !queue.timers.isEmpty {
                    queue.takeDueTimers(now: .now)
                }
                if !queue.jobs.isEmpty {
                    return .run(queue.jobs.removeFirst())
                }
                return queue.isStopping ? .exit : .sleep(until: queue.timers.first?.deadline)
            }
            switch step {
            case .run(let job):
                job()
            case .sleep(let deadline?):
                _ = wakeUp.wait(timeout: DispatchTime(deadline))
            case .sleep(nil):
                wakeUp.wait()
            case .exit:
                // Forgotten before the thread ends: a thread started later may get the same pthread_t, and must not
                // pass for this one in isCurrent.
                thread.withLock { $0 = nil }
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

    /// Runs `job` once `deadline` has passed, after the jobs queued by then; on a thread of Dispatch's when this
    /// thread has stopped by then, so a job that wakes a waiter is never lost.
    package func schedule(at deadline: ContinuousClock.Instant, _ job: @escaping @Sendable () -> Void) {
        let accepted = queue.withLock { queue in
            guard !queue.isStopping else { return false }
            let index = queue.timers.firstIndex { $0.deadline > deadline } ?? queue.timers.endIndex
            queue.timers.insert((deadline, job), at: index)
            return true
        }
        if accepted {
            // The thread may sleep until a later deadline.
            wakeUp.signal()
        } else {
            DispatchQueue.global().asyncAfter(deadline: DispatchTime(deadline), execute: job)
        }
    }

    /// Runs `finalJob` after the jobs already queued, then ends the thread; later submissions are refused, and
    /// timers not due yet run on Dispatch's threads when they are.
    package func stop(then finalJob: (@Sendable () -> Void)? = nil) {
        let timers = queue.withLock { queue -> [(deadline: ContinuousClock.Instant, job: @Sendable () -> Void)]? in
            guard !queue.isStopping else { return nil }
            if let finalJob { queue.jobs.append(finalJob) }
            queue.isStopping = true
            defer { queue.timers = [] }
            return queue.timers
        }
        guard let timers else { return }
        wakeUp.signal()
        for timer in timers {
            DispatchQueue.global().asyncAfter(deadline: DispatchTime(timer.deadline), execute: timer.job)
        }
    }

    /// Runs a job of a task that prefers this thread; once the thread has stopped, on a thread of Dispatch's, so
    /// the task still ends.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let run: @Sendable () -> Void = { job.runSynchronously(on: executor) }
        if !submit(run) {
            DispatchQueue.global().async(execute: run)
        }
    }
}
