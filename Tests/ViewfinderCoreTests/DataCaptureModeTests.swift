import Synchronization
import Testing
import ViewfinderTestSupport

@testable import ViewfinderCore

/// A mode that records what it reads through a ``RecordingProcessor`` and can be switched off or made to throw.
final class RecordingMode: DataCaptureMode {
    let recorder = RecordingProcessor()
    let order: Recorder<String>?
    private let enabled = Atomic<Bool>(true)
    private let throwing = Atomic<Bool>(false)

    init(order: Recorder<String>? = nil) {
        self.order = order
    }

    var isEnabled: Bool {
        get { enabled.load(ordering: .relaxed) }
        set { enabled.store(newValue, ordering: .relaxed) }
    }

    func fail(_ fails: Bool) {
        throwing.store(fails, ordering: .relaxed)
    }

    func process(_ frame: Frame) throws {
        order?.append("mode")
        try recorder.process(frame)
        if throwing.load(ordering: .relaxed) { throw ViewfinderError(.invalidArgument, "the mode failed") }
    }
}

@Suite struct DataCaptureModeTests {
    @Test func enabledModesReadEveryFrameAfterTheProcessors() async throws {
        let source = SequenceFrameSource()
        let order = Recorder<String>()
        let context = DataCaptureContext()
        context.addProcessor { _ in order.append("processor") }
        let mode = RecordingMode(order: order)
        context.addMode(mode)
        context.addMode(mode)
        #expect(context.modes.count == 1)
        await context.setFrameSource(source)
        await source.switch(toDesiredState: .on)

        source.add(makeFrame(1))
        try await waitUntil("the mode to read the frame") { mode.recorder.seen.count == 1 }
        #expect(order.all == ["processor", "mode"])

        mode.isEnabled = false
        source.add(makeFrame(2))
        try await waitUntil("the second frame") { context.statistics.framesProcessed == 2 }
        #expect(mode.recorder.seen.all == [1])

        mode.isEnabled = true
        source.add(makeFrame(3))
        try await waitUntil("the third frame") { mode.recorder.seen.count == 2 }
        #expect(mode.recorder.seen.all == [1, 3])

        context.removeMode(mode)
        #expect(context.modes.isEmpty)
        source.add(makeFrame(4))
        try await waitUntil("the fourth frame") { context.statistics.framesProcessed == 4 }
        #expect(mode.recorder.seen.all == [1, 3])
    }

    @Test func aModeThatThrowsIsReportedLikeAProcessor() async throws {
        let source = SequenceFrameSource()
        let mode = RecordingMode()
        mode.fail(true)
        let context = DataCaptureContext()
        context.addMode(mode)
        let failures = Recorder<String>()
        let token = context.addFrameListener { event in
            if case .processorFailed(let failure) = event {
                failures.append("\(failure.frame.sequenceNumber) \(failure.processor === mode)")
            }
        }
        await context.setFrameSource(source)
        await source.switch(toDesiredState: .on)

        source.add(makeFrame(7))
        try await waitUntil("the failure") { failures.count == 1 }
        #expect(failures.all == ["7 true"])
        try await waitUntil("the frame to count") { context.statistics.framesProcessed == 1 }
        #expect(context.statistics.processorFailures == 1)
        withExtendedLifetime(token) {}
    }

    @Test func aSlowModeMakesTheSourceDropFramesOneInFlight() async throws {
        let source = SequenceFrameSource()
        let gate = Gate()
        let context = DataCaptureContext()
        let mode = GatedMode(gate: gate)
        context.addMode(mode)
        await context.setFrameSource(source)
        await source.switch(toDesiredState: .on)

        source.add(makeFrame(0))
        try await waitUntil("the first frame to reach the mode") { gate.arrived == 1 }
        for index in 1...20 { source.add(makeFrame(UInt64(index))) }
        #expect(source.statistics.queued == SequenceFrameSource.defaultQueueCapacity)
        #expect(source.statistics.dropped == 20 - SequenceFrameSource.defaultQueueCapacity)
        for _ in 0...SequenceFrameSource.defaultQueueCapacity { gate.open() }
        try await waitUntil("the queued frames") { mode.recorder.seen.count == 4 }
        #expect(mode.recorder.seen.all == [0, 18, 19, 20])
        #expect(mode.recorder.maximumInFlight == 1)
    }
}

/// A mode that waits at a gate in every frame.
final class GatedMode: DataCaptureMode {
    let recorder: RecordingProcessor

    init(gate: Gate) {
        recorder = RecordingProcessor(gate: gate)
    }

    var isEnabled: Bool { true }

    func process(_ frame: Frame) throws {
        try recorder.process(frame)
    }
}
