import ViewfinderSimulator
import ViewfinderSystem

/// Waits until `condition` holds, checking it at once and then after sleeps that double from 1 ms to 20 ms, and fails
/// once the sleeps add up to `limit`.
///
/// The limit makes a broken test fail instead of hanging; it asserts nothing about speed. It adds up the sleeps asked
/// for, not the time that passed: on a machine so busy that the test waits seconds for one of Swift's cooperative
/// threads, each check comes late, and what the test waits for has had its turns in between, so the test fails only
/// when the condition really does not come. The sleeps grow because every check is a job on the cooperative pool:
/// hundreds of tests checking every 2 ms, each check slowed tenfold under the thread sanitizer, kept the pool's
/// threads busy with checks and starved the tests that wait on the network within deadlines.
///
/// ```swift
/// try await waitUntil("the observer to hear of it") { values.all.count == 2 }
/// ```
///
/// - Throws: ``TestFailure`` saying what never came, and where the test waited for it.
public func waitUntil(
    _ what: @autoclosure () -> String = "the condition", limit: Duration = .seconds(20), fileID: String = #fileID,
    line: Int = #line, _ condition: () async throws -> Bool
) async throws {
    var slept = Duration.zero
    var interval = Duration.milliseconds(1)
    while slept < limit {
        if try await condition() { return }
        try await Task.sleep(for: interval)
        slept += interval
        interval = min(interval * 2, .milliseconds(20))
    }
    guard try await condition() else {
        throw TestFailure("\(fileID):\(line): gave up waiting for \(what()) after \(limit) of checks")
    }
}

/// Runs a call that blocks its thread, such as `CameraSimulator.stop()` or a wait for a child process, on a thread of
/// its own, so it keeps none of Swift's cooperative threads from other tasks.
public func offThePool<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        do {
            try PlatformThread.detach(name: "tests-blocking") { continuation.resume(returning: body()) }
        } catch {
            continuation.resume(returning: body())
        }
    }
}

/// Runs a blocking call that throws on a thread of its own; see ``offThePool(_:)-(()->Result)``.
public func offThePool<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await offThePool { Swift.Result { try body() } }.get()
}

extension CameraSimulator {
    /// Stops the simulator off Swift's cooperative pool: stopping waits for its threads.
    public func stopOffThePool() async {
        await offThePool { self.stop() }
    }
}
