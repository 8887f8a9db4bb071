import Dispatch
import Synchronization
import Testing
import ViewfinderTestSupport

@testable import ViewfinderCore

@Suite struct FrameSourceEngineTests {
    @Test func manyConcurrentRequestsCarryOutOnlyTheLast() async throws {
        let source = GatedSource()
        let first = Recorder<Bool>()
        source.switch(toDesiredState: .on) { first.append($0) }
        try await waitUntil("the start to run") { source.backend.performed == [.start] }

        // While the start runs, many threads ask at once; each request supersedes the one before.
        let requests = 200
        let targets: [FrameSourceState] = (0..<requests).map { [.off, .on, .standby][$0 % 3] }
        let results = Recorder<(index: Int, succeeded: Bool)>()
        DispatchQueue.concurrentPerform(iterations: requests) { index in
            source.switch(toDesiredState: targets[index]) { results.append((index, $0)) }
        }
        try await waitUntil("the superseded requests to complete") { results.count == requests - 1 }
        #expect(results.all.allSatisfy { !$0.succeeded })
        #expect(source.currentState == .starting)

        source.backend.open()
        try await waitUntil("every request to complete") { results.count == requests && first.count == 1 }
        #expect(first.all == [true])
        let winners = results.all.filter(\.succeeded)
        #expect(winners.count == 1)
        let winner = try #require(winners.first)
        let superseded = Set(results.all.filter { !$0.succeeded }.map(\.index))
        #expect(superseded.count == requests - 1 && !superseded.contains(winner.index))
        try await waitUntil("the source to settle") { !source.currentState.isTransitional }
        #expect(source.currentState == targets[winner.index])
        #expect(source.desiredState == targets[winner.index])
        // The start, then at most the one transition to the winning state.
        #expect(source.backend.performed.count <= 2)
    }

    @Test func asyncRequestsReportWhetherTheyWereCarriedOut() async throws {
        let source = GatedSource()
        // The requests still pending are awaited when the test leaves, and they end only once the gate opens: a wait
        // that fails opens it before it throws, so the test fails instead of hanging.
        let waitUntilOrOpen = { (what: String, condition: @Sendable () -> Bool) async throws in
            do {
                try await waitUntil(what, condition)
            } catch {
                source.backend.open()
                throw error
            }
        }
        async let starting = source.switch(toDesiredState: .on)
        try await waitUntilOrOpen("the start to run") { source.backend.performed == [.start] }
        async let superseded = source.switch(toDesiredState: .off)
        try await waitUntilOrOpen("the off request to wait") { source.desiredState == .off }
        async let latest = source.switch(toDesiredState: .standby)
        try await waitUntilOrOpen("the standby request to wait") { source.desiredState == .standby }
        source.backend.open()
        let outcomes = await (starting, superseded, latest)
        #expect(outcomes == (true, false, true))
        #expect(source.currentState == .standby)
        #expect(source.backend.performed == [.start, .goToSleep])
    }

    @Test func stateListenersSeeEveryChangeInOrder() async throws {
        let source = GatedSource()
        source.backend.open()
        let changes = Recorder<String>()
        let token = source.addStateListener { changes.append($0.description) }
        #expect(await source.switch(toDesiredState: .standby))
        #expect(await source.switch(toDesiredState: .on))
        #expect(await source.switch(toDesiredState: .off))
        try await waitUntil("every change to be told") { changes.count == 6 }
        #expect(
            changes.all == [
                "off → bootingUp", "bootingUp → standby", "standby → wakingUp", "wakingUp → on", "on → stopping",
                "stopping → off",
            ])
        withExtendedLifetime(token) {}
    }

    @Test func aFailingBackendFallsBackAndTellsWhy() async throws {
        let source = GatedSource()
        source.backend.open()
        source.backend.fail(.start, with: ViewfinderError(.deviceBusy, "another program uses the camera"))
        let changes = Recorder<FrameSourceStateChange>()
        let token = source.addStateListener { changes.append($0) }
        #expect(await source.switch(toDesiredState: .on) == false)
        #expect(source.currentState == .off)
        #expect(source.desiredState == .off)
        let result = await source.frameSourceEngine.requestState(.on)
        guard case .failed(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect((error as? ViewfinderError)?.code == .deviceBusy)
        try await waitUntil("the fall backs to be told") { changes.count == 4 }
        let fallBack = changes.all[1]
        #expect(fallBack.state == .off && fallBack.previousState == .starting)
        #expect((fallBack.error as? ViewfinderError)?.code == .deviceBusy)
        withExtendedLifetime(token) {}
    }

    @Test func aBackendFailureWhileOnTurnsTheSourceOff() async throws {
        let source = GatedSource()
        source.backend.open()
        #expect(await source.switch(toDesiredState: .on))
        let changes = Recorder<FrameSourceStateChange>()
        let token = source.addStateListener { changes.append($0) }
        source.frameSourceEngine.reportFailure(ViewfinderError(.deviceRemoved, "unplugged"))
        #expect(source.currentState == .off)
        #expect(source.desiredState == .off)
        try await waitUntil("the failure to be told") { changes.count == 1 }
        #expect((changes.all.first?.error as? ViewfinderError)?.code == .deviceRemoved)
        withExtendedLifetime(token) {}
    }

    @Test func withoutABackendTransitionsCompleteBeforeTheCallReturns() {
        let source = SequenceFrameSource()
        let result = Recorder<Bool>()
        source.switch(toDesiredState: .on) { result.append($0) }
        #expect(result.all == [true])
        #expect(source.currentState == .on)
        source.switch(toDesiredState: .standby)
        #expect(source.currentState == .standby)
    }

    @Test func completionHandlersCanRunOnAGivenQueue() async throws {
        let source = SequenceFrameSource()
        let marked = MarkedQueue()
        let seen = Recorder<Bool>()
        source.switch(toDesiredState: .on, completionQueue: marked.queue) { _ in seen.append(marked.isCurrent) }
        try await waitUntil("the completion") { seen.count == 1 }
        #expect(seen.all == [true])
    }

    @Test func discardingQueuedFramesReleasesThemAndCountsThemAsDropped() async throws {
        let engine = FrameSourceEngine(queueCapacity: 2)
        let released = Atomic<Int>(0)
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 16)
        defer { memory.deallocate() }
        let plane = PixelBuffer.Plane(
            baseAddress: UnsafeRawPointer(memory.baseAddress!), bytesPerRow: 8, width: 8, height: 8, byteCount: 64)
        for index in 0..<2 {
            let buffer = try PixelBuffer(width: 8, height: 8, format: .gray8, borrowing: [plane]) {
                released.add(1, ordering: .relaxed)
            }
            engine.submit(Frame(pixelBuffer: buffer, timestamp: .now(), sequenceNumber: UInt64(index)))
        }
        #expect(released.load(ordering: .relaxed) == 0)
        #expect(engine.discardQueuedFrames() == 2)
        #expect(released.load(ordering: .relaxed) == 2)
        #expect(engine.statistics.dropped == 2 && engine.statistics.queued == 0)
        #expect(engine.discardQueuedFrames() == 0)

        // A frame submitted afterwards is the next one delivered.
        final class Source: FrameSource {
            let frameSourceEngine: FrameSourceEngine
            init(_ engine: FrameSourceEngine) { frameSourceEngine = engine }
        }
        let sequences = Recorder<UInt64>()
        let context = DataCaptureContext()
        context.addProcessor { sequences.append($0.sequenceNumber) }
        await context.setFrameSource(Source(engine))
        engine.submit(makeFrame(7))
        #expect(await engine.requestState(.on).succeeded)
        try await waitUntil("the frame to be processed") { sequences.count == 1 }
        #expect(sequences.all == [7])
    }

    @Test func transitionalStatesAreRefused() async {
        let source = SequenceFrameSource()
        #expect(await source.switch(toDesiredState: .stopping) == false)
        #expect(source.currentState == .off)
    }
}

@Suite struct ListenerLifetimeTests {
    private final class Witness: Sendable {}

    @Test func releasingTheTokenRemovesTheListenerAndWhatItHolds() async {
        let source = SequenceFrameSource()
        let calls = Atomic<Int>(0)
        weak var weakWitness: Witness?
        var token: ObservationToken?
        do {
            let witness = Witness()
            weakWitness = witness
            token = source.addStateListener { _ in
                withExtendedLifetime(witness) { _ = calls.add(1, ordering: .relaxed) }
            }
        }
        await source.switch(toDesiredState: .on)
        #expect(calls.load(ordering: .relaxed) == 2)
        #expect(weakWitness != nil)
        token = nil
        #expect(weakWitness == nil)
        await source.switch(toDesiredState: .off)
        #expect(calls.load(ordering: .relaxed) == 2)
        #expect(token == nil)
    }

    @Test func cancellingIsIdempotentAndStoredTokensKeepListening() async {
        let source = SequenceFrameSource()
        let calls = Atomic<Int>(0)
        var tokens: [ObservationToken] = []
        source.addStateListener { _ in calls.add(1, ordering: .relaxed) }.store(in: &tokens)
        await source.switch(toDesiredState: .on)
        #expect(calls.load(ordering: .relaxed) == 2)
        tokens[0].cancel()
        tokens[0].cancel()
        await source.switch(toDesiredState: .off)
        #expect(calls.load(ordering: .relaxed) == 2)
        #expect(tokens[0] == tokens[0])
    }

    @Test func aTokenOutlivingItsSourceDoesNothing() {
        var source: SequenceFrameSource? = SequenceFrameSource()
        weak let weakSource = source
        let token = source!.addFrameListener { _ in }
        source = nil
        #expect(weakSource == nil)
        token.cancel()
    }
}
