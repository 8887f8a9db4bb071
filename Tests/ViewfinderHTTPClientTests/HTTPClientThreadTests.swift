import Testing
import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderSystem

/// `HTTPClient.run(on:peer:_:)`: blocking work on an I/O thread, asked from a task elsewhere or from a task that
/// runs on that thread, as live view's publisher does.
@Suite struct HTTPClientThreadTests {
    /// Asked from elsewhere, the body runs on the thread as a job, after the jobs queued there before it.
    @Test func runsTheBodyOnTheThreadAfterTheJobsQueuedBeforeIt() async throws {
        let thread = try IOThread(name: "run-elsewhere")
        defer { thread.stop() }
        let order = Locked<[String]>([])
        thread.submit { order.withLock { $0.append("job") } }
        let onThread = try await HTTPClient.run(on: thread, peer: "the test") { () throws(ViewfinderError) -> Bool in
            order.withLock { $0.append("body") }
            return thread.isCurrent
        }
        #expect(onThread)
        #expect(order.withLock { $0 } == ["job", "body"])
    }

    /// Asked from a task running on the thread, the body runs there at once, without a job that suspends the task:
    /// a job the task queued before the call runs after the body, once the task lets the thread go.
    @Test func runsTheBodyAtOnceForATaskOnTheThread() async throws {
        let thread = try IOThread(name: "run-on-thread")
        defer { thread.stop() }
        let order = Locked<[String]>([])
        let onThread = try await Task(executorPreference: thread) { () async throws -> Bool in
            thread.submit { order.withLock { $0.append("job") } }
            return try await HTTPClient.run(on: thread, peer: "the test") { () throws(ViewfinderError) -> Bool in
                order.withLock { $0.append("body") }
                return thread.isCurrent
            }
        }.value
        // Queued after the task's job, so it returns once that job has run.
        try await HTTPClient.run(on: thread, peer: "the test") { () throws(ViewfinderError) in }
        #expect(onThread)
        #expect(order.withLock { $0 } == ["body", "job"])
    }

    /// Once the thread has stopped, a call fails as not connected and names the peer.
    @Test func failsOnceTheThreadHasStopped() async throws {
        let thread = try IOThread(name: "run-stopped")
        thread.stop()
        do {
            try await HTTPClient.run(on: thread, peer: "the stopped camera") { () throws(ViewfinderError) in }
            Issue.record("the body ran on a stopped thread")
        } catch {
            #expect(error.code == .notConnected)
            #expect(error.message.contains("the stopped camera"))
        }
    }
}
