import Testing
import ViewfinderSystem

/// The async FIFO that V4L2 sources and PTP dialects order their work with.
// Five minutes: each chained operation waits its turn in the cooperative pool's queue, which early in a run of the whole
// suite under the thread sanitizer holds hundreds of jobs, so 40 operations took over a minute there (5 ms alone).
@Suite(.timeLimit(.minutes(5))) struct SerialTasksTests {
    private struct Refused: Error, Equatable {}

    @Test func anOperationStartsOnlyOnceTheOneBeforeHasEnded() async {
        let serial = SerialTasks()
        let events = Locked<[String]>([])
        let (gate, opener) = AsyncStream.makeStream(of: Void.self)
        await withCheckedContinuation { (firstStarted: CheckedContinuation<Void, Never>) in
            serial.add {
                events.withLock { $0.append("first started") }
                firstStarted.resume()
                for await _ in gate { break }
                events.withLock { $0.append("first ended") }
            }
        }
        let second = Task { await serial.run { events.withLock { $0.append("second") } } }
        opener.yield()
        await second.value
        #expect(events.withLock { $0 } == ["first started", "first ended", "second"])
    }

    @Test func operationsRunInTheOrderTheyWereAdded() async {
        let serial = SerialTasks()
        let order = Locked<[Int]>([])
        // Forty: each operation waits for a thread of the cooperative pool, and under the thread sanitizer a run of the
        // whole suite kept both busy so long that a chain of 200 took over a minute.
        for index in 0..<40 {
            serial.add {
                if index % 3 == 0 { await Task.yield() }
                order.withLock { $0.append(index) }
            }
        }
        let count = await serial.run { order.withLock { $0.count } }
        #expect(count == 40)
        #expect(order.withLock { $0 } == Array(0..<40))
    }

    @Test func runPassesOnWhatTheOperationReturnsOrThrowsAndTheQueueGoesOn() async throws {
        let serial = SerialTasks()
        let value = await serial.run { 42 }
        #expect(value == 42)
        await #expect(throws: Refused.self) {
            try await serial.run { () throws(Refused) -> Int in throw Refused() }
        }
        let after = try await serial.run { () async throws -> String in "after" }
        #expect(after == "after")
    }
}
