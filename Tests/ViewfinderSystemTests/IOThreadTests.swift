import Dispatch
import Testing
import ViewfinderSystem

/// The I/O thread as a job queue, a timer and a task executor.
@Suite(.timeLimit(.minutes(1))) struct IOThreadTests {
    /// Submits `body` to `thread` and waits for it, as sessions do with their blocking calls.
    static func run<Result: Sendable>(on thread: IOThread, _ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            let accepted = thread.submit { continuation.resume(returning: body()) }
            if !accepted { continuation.resume(returning: body()) }
        }
    }

    @Test func aTaskThatPrefersTheThreadRunsThereBeforeAndAfterItWaitsForAJob() async throws {
        let thread = try IOThread(name: "test-executor")
        defer { thread.stop() }
        let places = await Task(executorPreference: thread) {
            let before = thread.isCurrent
            let job = await Self.run(on: thread) { thread.isCurrent }
            let after = thread.isCurrent
            return [before, job, after]
        }.value
        #expect(places == [true, true, true])
        #expect(!thread.isCurrent)
    }

    @Test func timersRunInDeadlineOrderOnTheThreadAndNotBeforeTheirDeadline() async throws {
        let thread = try IOThread(name: "test-timers")
        defer { thread.stop() }
        let start = ContinuousClock.now
        let runs = Locked<[(name: String, at: ContinuousClock.Instant, onThread: Bool)]>([])
        let delays = ["30 ms": 30, "10 ms": 10, "20 ms": 20, "10 ms again": 10]
        // The thread is held in a job queued first until every timer is set and the job "now" queued: on a busy
        // machine, setting the timers could take past their deadlines, and the thread would run those due before
        // the rest were set (a clean-clone CI run had "10 ms" and "30 ms" before "now").
        let release = DispatchSemaphore(value: 0)
        #expect(thread.submit { release.wait() })
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            for (name, delay) in [("30 ms", 30), ("10 ms", 10), ("20 ms", 20), ("10 ms again", 10)] {
                thread.schedule(at: start + .milliseconds(delay)) {
                    let count = runs.withLock { runs in
                        runs.append((name, .now, thread.isCurrent))
                        return runs.count
                    }
                    if count == 5 { continuation.resume() }
                }
            }
            thread.submit { runs.withLock { $0.append(("now", .now, thread.isCurrent)) } }
            release.signal()
        }
        let all = runs.withLock { $0 }
        #expect(all.map(\.name) == ["now", "10 ms", "10 ms again", "20 ms", "30 ms"])
        #expect(all.filter { !$0.onThread }.isEmpty)
        for run in all {
            #expect(run.at >= start + .milliseconds(delays[run.name] ?? 0), "\(run.name) ran early")
        }
    }

    @Test func aStoppedThreadStillLetsItsTimersAndTasksFinishElsewhere() async throws {
        let thread = try IOThread(name: "test-stopping")
        let deadline = ContinuousClock.now + .milliseconds(50)
        // The thread is held in a job queued first until the timer has been handed over, so the timer cannot run on
        // it however late this task gets to stop it.
        let release = DispatchSemaphore(value: 0)
        #expect(thread.submit { release.wait() })
        let ranOnThread = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            thread.schedule(at: deadline) { continuation.resume(returning: thread.isCurrent) }
            thread.stop()
            release.signal()
        }
        #expect(!ranOnThread)
        #expect(ContinuousClock.now >= deadline)
        let refused = !thread.submit {}
        #expect(refused)
        let finished = await Task(executorPreference: thread) {
            await Self.run(on: thread) { 42 }
        }.value
        #expect(finished == 42)
    }
}
