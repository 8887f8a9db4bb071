import Dispatch

/// Runs `body` on a thread of its own instead of one of Swift's few cooperative threads, keeping the task (and with
/// it the running test) the same.
///
/// Tests that wait on child processes and sockets block their thread; on the cooperative pool (as wide as the
/// machine has cores) they would starve every other test meanwhile.
///
/// ```swift
/// @Test func servesThePage() async throws {
///     try await onOwnThread {
///         let reply = try HTTPTestClient.get(port: port, "/")   // blocks this thread only
///         #expect(reply.status == 200)
///     }
/// }
/// ```
public func onOwnThread<Result>(_ body: () throws -> Result) async throws -> Result {
    let executor = ThreadExecutor()
    return try await withTaskExecutorPreference(executor) {
        try body()
    }
}

/// A task executor that runs jobs one at a time on a serial dispatch queue, whose thread is not part of the
/// cooperative pool.
private final class ThreadExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "viewfinder.test.own-thread")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
