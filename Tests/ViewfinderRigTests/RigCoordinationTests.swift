import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderRig

/// The start gate that releases the cameras together and the per-camera time limit.
@Suite(.timeLimit(.minutes(1))) struct RigCoordinationTests {
    @Test func theGateOpensOnlyWhenEveryCameraStillTakingPartIsWaiting() async throws {
        let gate = RigStartGate(count: 3)
        let through = Locked<[Int]>([])
        let first = Task {
            await gate.pass(0)
            through.withLock { $0.append(0) }
        }
        let second = Task {
            await gate.pass(1)
            through.withLock { $0.append(1) }
        }
        // Both wait at the gate for camera 2, and nothing has gone through.
        try await waitUntil("cameras 0 and 1 to wait at the gate") { gate.waitingCount == 2 }
        #expect(through.withLock { $0 }.isEmpty)
        // Camera 2 fails before the gate: the others go.
        gate.leave(2)
        await first.value
        await second.value
        #expect(through.withLock { $0 }.sorted() == [0, 1])
        // Leaving after passing changes nothing, and a late pass goes straight through.
        gate.leave(0)
        await gate.pass(2)
    }

    @Test func aGateForOneOpensAtOnce() async {
        let gate = RigStartGate(count: 1)
        await gate.pass(0)
    }

    @Test func theDeadlineGivesTheResultOrTheErrorOrATimeout() async throws {
        let value = await RigDeadline.run(.seconds(5), doing: "add") { 2 + 2 }
        #expect(try value.get() == 4)

        let refused = await RigDeadline.run(.seconds(5), doing: "refuse") { () async throws -> Int in
            throw ViewfinderError(.deviceBusy, "busy")
        }
        #expect(throws: ViewfinderError(.deviceBusy, "busy")) { try refused.get() }

        let cancelled = Locked(false)
        let late = await RigDeadline.run(.milliseconds(100), doing: "wait forever") { () async throws -> Int in
            do {
                try await Task.sleep(for: .seconds(3600))
            } catch {
                cancelled.withLock { $0 = true }
                throw error
            }
            return 0
        }
        guard case .failure(let error) = late else {
            Issue.record("an operation that never ends finished")
            return
        }
        #expect(error.code == .timeout)
        #expect(error.message == "could not wait forever within 0.1 seconds")
        // The operation that ran late is told to stop.
        try await waitUntil("the late operation to be cancelled") { cancelled.withLock { $0 } }
    }

    @Test func cancellingTheCallerEndsTheWaitAsCancelled() async throws {
        let started = Locked(false)
        let task = Task {
            await RigDeadline.run(.seconds(3600), doing: "wait") { () async throws -> Int in
                started.withLock { $0 = true }
                try await Task.sleep(for: .seconds(3600))
                return 0
            }
        }
        // Cancelled while the operation runs, not before the wait began.
        try await waitUntil("the operation to start") { started.withLock { $0 } }
        task.cancel()
        guard case .failure(let error) = await task.value else {
            Issue.record("a cancelled wait succeeded")
            return
        }
        #expect(error.code == .cancelled)
    }
}
