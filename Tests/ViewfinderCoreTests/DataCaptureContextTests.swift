import Dispatch
import Synchronization
import Testing
import ViewfinderTestSupport

@testable import ViewfinderCore

@Suite struct DataCaptureContextTests {
    @Test func atMostOneFrameIsEverInFlight() async throws {
        let source = try SequenceFrameSource(queueCapacity: 4)
        let context = DataCaptureContext()
        let first = RecordingProcessor()
        let second = RecordingProcessor()
        context.addProcessor(first)
        context.addProcessor(second)
        let events = Recorder<String>()
        let token = context.addFrameListener { event in
            switch event {
            case .willProcess: events.append("will")
            case .didProcess: events.append("did")
            case .processorFailed: events.append("failed")
            }
        }
        await context.setFrameSource(source)
        await source.switch(toDesiredState: .on)

        let producers = 4
        let framesEach = 2000
        DispatchQueue.concurrentPerform(iterations: producers) { producer in
            for index in 0..<framesEach {
                source.add(makeFrame(UInt64(producer * framesEach + index)))
            }
        }
        try await waitUntil("the queue to drain") { source.statistics.queued == 0 }
        try await waitUntil("the last frame to finish") {
            context.statistics.framesProcessed == source.statistics.delivered
        }

        #expect(first.maximumInFlight == 1)
        #expect(second.maximumInFlight == 1)
        let statistics = source.statistics
        #expect(statistics.received == producers * framesEach)
        #expect(statistics.delivered + statistics.dropped == statistics.received)
        #expect(first.seen.count == statistics.delivered)
        #expect(first.seen.all == second.seen.all)
        // Frames of one producer arrive in the order it added them.
        for producer in 0..<producers {
            let range = UInt64(producer * framesEach)..<UInt64((producer + 1) * framesEach)
            let mine = first.seen.all.filter { range.contains($0) }
            #expect(mine == mine.sorted())
        }
        // Listeners are told will/did around every frame, never overlapping.
        let told = events.all
        #expect(told.count == 2 * statistics.delivered)
        #expect(zip(told, told.dropFirst()).allSatisfy { $0 != $1 })
        withExtendedLifetime((context, token)) {}
    }

    @Test func aSlowProcessorMakesTheSourceDropNeverQueue() async throws {
        let source = SequenceFrameSource()
        let gate = Gate()
        let processor = RecordingProcessor(gate: gate)
        let context = await startPipeline(source, processor: processor)

        source.add(makeFrame(0))
        try await waitUntil("the first frame to reach the processor") { gate.arrived == 1 }
        for index in 1...50 {
            source.add(makeFrame(UInt64(index)))
        }
        let whileBusy = source.statistics
        #expect(whileBusy.queued == SequenceFrameSource.defaultQueueCapacity)
        #expect(whileBusy.delivered == 1)
        #expect(whileBusy.dropped == 50 - SequenceFrameSource.defaultQueueCapacity)

        for _ in 0...SequenceFrameSource.defaultQueueCapacity { gate.open() }
        try await waitUntil("the queued frames") { processor.seen.count == 4 }
        #expect(processor.seen.all == [0, 48, 49, 50])
        withExtendedLifetime(context) {}
    }

    @Test func processorsRunInOrderBetweenTheListenersAndFailuresAreReported() async throws {
        struct Refusal: Error {}
        let source = SequenceFrameSource()
        let context = DataCaptureContext()
        let order = Recorder<String>()
        let failing = context.addProcessor { frame in
            order.append("failing \(frame.sequenceNumber)")
            throw Refusal()
        }
        context.addProcessor { frame in order.append("second \(frame.sequenceNumber)") }
        #expect(context.processors.count == 2)
        let failures = Recorder<ProcessorFailure>()
        let token = context.addFrameListener { event in
            switch event {
            case .willProcess(let frame): order.append("will \(frame.sequenceNumber)")
            case .didProcess(let frame): order.append("did \(frame.sequenceNumber)")
            case .processorFailed(let failure):
                order.append("failed \(failure.frame.sequenceNumber)")
                failures.append(failure)
            }
        }
        await context.setFrameSource(source)
        await source.switch(toDesiredState: .on)
        source.add(makeFrame(7))
        try await waitUntil("the frame") { order.count == 5 }
        #expect(order.all == ["will 7", "failing 7", "failed 7", "second 7", "did 7"])
        let failure = try #require(failures.all.first)
        #expect(failure.processor === failing)
        #expect(failure.error is Refusal)
        #expect(failure.description.contains("failed on frame 7"))
        try await waitUntil("the statistics") { context.statistics.framesProcessed == 1 }
        #expect(context.statistics.processorFailures == 1)

        context.removeProcessor(failing)
        source.add(makeFrame(8))
        try await waitUntil("the next frame") { order.count == 8 }
        #expect(order.all.suffix(3) == ["will 8", "second 8", "did 8"])
        withExtendedLifetime((context, token)) {}
    }

    @Test func settingANewSourceDetachesTheOldOneAfterItsFrameInFlight() async throws {
        let old = SequenceFrameSource()
        let new = SequenceFrameSource()
        let gate = Gate()
        let processor = RecordingProcessor(gate: gate)
        let context = await startPipeline(old, processor: processor)
        await new.switch(toDesiredState: .on)

        old.add(makeFrame(1))
        try await waitUntil("the old source's frame to be in flight") { gate.arrived == 1 }
        let switched = Atomic<Bool>(false)
        context.setFrameSource(new) { switched.store(true, ordering: .releasing) }
        #expect(context.frameSource === new)
        new.add(makeFrame(100))
        old.add(makeFrame(2))
        // The context's thread holds frame 1 at the gate: the switch waits for it, queued.
        #expect(context.pendingSourceChanges == 1)
        let switchedWhileInFlight = switched.load(ordering: .acquiring)
        #expect(!switchedWhileInFlight)

        gate.open()
        try await waitUntil("the switch") { switched.load(ordering: .acquiring) }
        #expect(!old.frameSourceEngine.isAttached)
        #expect(new.frameSourceEngine.isAttached)
        gate.open()
        try await waitUntil("the new source's frame") { processor.seen.count == 2 }
        #expect(processor.seen.all == [1, 100])
        // The old source keeps its frame queued for whichever context it is set on next.
        #expect(old.statistics.queued == 1)
        withExtendedLifetime(context) {}
    }

    @Test func aSourceSetOnAnotherContextLeavesTheFirst() async throws {
        let source = SequenceFrameSource()
        let first = DataCaptureContext()
        let second = DataCaptureContext()
        let processor = RecordingProcessor()
        second.addProcessor(processor)
        await first.setFrameSource(source)
        #expect(first.frameSource === source)
        await second.setFrameSource(source)
        try await waitUntil("the first context to let go") { first.frameSource == nil }
        await source.switch(toDesiredState: .on)
        source.add(makeFrame(3))
        try await waitUntil("the frame at the second context") { processor.seen.count == 1 }
        #expect(second.frameSource === source)
        withExtendedLifetime(first) {}
    }

    @Test func releasingTheContextDetachesItsSource() async throws {
        let source = SequenceFrameSource()
        var context: DataCaptureContext? = DataCaptureContext()
        await context?.setFrameSource(source)
        #expect(source.frameSourceEngine.isAttached)
        context = nil
        try await waitUntil("the context's thread to detach the source") { !source.frameSourceEngine.isAttached }
    }

    @Test func completionsCanRunOnAGivenQueue() async throws {
        let context = DataCaptureContext()
        let marked = MarkedQueue()
        let seen = Recorder<Bool>()
        context.setFrameSource(SequenceFrameSource(), completionQueue: marked.queue) { seen.append(marked.isCurrent) }
        try await waitUntil("the completion") { seen.count == 1 }
        #expect(seen.all == [true])
        await context.setFrameSource(nil)
        #expect(context.frameSource == nil)
    }

    @Test func frameListenersOfTheSourceAndTheContextStopWithTheirTokens() async throws {
        let source = SequenceFrameSource()
        let processor = RecordingProcessor()
        let context = await startPipeline(source, processor: processor)
        let sourceFrames = Recorder<UInt64>()
        let contextEvents = Recorder<String>()
        var sourceToken: ObservationToken? = source.addFrameListener { sourceFrames.append($0.sequenceNumber) }
        var contextToken: ObservationToken? = context.addFrameListener { _ in contextEvents.append("event") }

        source.add(makeFrame(1))
        try await waitUntil("the first frame to be done") { contextEvents.count == 2 }
        #expect(sourceFrames.all == [1])
        #expect(processor.seen.all == [1])

        sourceToken = nil
        contextToken = nil
        source.add(makeFrame(2))
        try await waitUntil("the second frame") { processor.seen.count == 2 }
        #expect(sourceFrames.all == [1])
        #expect(contextEvents.count == 2)
        #expect(sourceToken == nil && contextToken == nil)
        withExtendedLifetime(context) {}
    }
}
