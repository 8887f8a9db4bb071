import ViewfinderSimulator
import ViewfinderSystem

/// Waits until `condition` holds, checking it every 2 ms, and fails after `checks` checks (20 s when the test runs
/// freely).
///
/// The limit makes a broken test fail instead of hanging; it asserts nothing about speed. It counts checks, not time:
/// on a machine so busy that the test waits seconds for one of Swift's cooperative threads, each check comes late,
/// and what the test waits for has had its turns in between, so the test fails only when the condition really does
/// not come.
///
/// ```swift
/// try await waitUntil("the observer to hear of it") { values.all.count == 2 }
/// ```
///
/// - Throws: ``TestFailure`` saying what never came, and where the test waited for it.
public func waitUntil(
    _ what: @autoclosure () -> String = "the condition", checks: Int = 10_000, fileID: String = #fileID,
    line: Int = #line, _ condition: () async throws -> Bool
) async throws {
    for _ in 0..<checks {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(2))
    }
    guard try await condition() else {
        throw TestFailure("\(fileID):\(line): gave up waiting for \(what()) after \(checks) checks")
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
