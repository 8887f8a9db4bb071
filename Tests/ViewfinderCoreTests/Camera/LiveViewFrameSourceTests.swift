import Testing
import ViewfinderReactive
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderCore

/// A camera's live view as a frame source of a capture context, against a live view held in memory.
@Suite(.timeLimit(.minutes(2))) struct LiveViewFrameSourceTests {
    @Test func liveViewFramesReachTheContextAtItsPace() async throws {
        let camera = FakeCamera()
        let source = LiveViewFrameSource(camera: camera)
        let gate = Gate()
        let processor = RecordingProcessor(gate: gate)
        let context = DataCaptureContext()
        context.addProcessor(processor)
        await context.setFrameSource(source)
        #expect(await source.switch(toDesiredState: .on))

        // The context holds frame 1 at the gate: one more frame is fetched and queued, and no others.
        try await waitUntil("the processor to hold the first frame") { gate.arrived == 1 }
        try await waitUntil("the next frame to be fetched") { camera.liveView.fetches == 2 }
        try await waitUntil("live view to wait for the context") {
            camera.liveViewPublisher.statistics.isWaitingForDemand
        }
        #expect(camera.liveView.fetches == 2)
        for _ in 0..<4 { gate.open() }
        try await waitUntil("four frames processed") { processor.seen.count == 4 }
        #expect(processor.seen.all == [1, 2, 3, 4])
        // Frame 5 waits at the gate and frame 6 in the queue: nothing beyond.
        try await waitUntil("the sixth frame to be fetched") { camera.liveView.fetches == 6 }
        try await waitUntil("live view to wait for the context again") {
            camera.liveViewPublisher.statistics.isWaitingForDemand
        }
        #expect(camera.liveView.fetches == 6)

        #expect(await source.switch(toDesiredState: .off))
        gate.open()
        gate.open()
        try await waitUntil("live view to end after the grace period") { camera.liveView.ends == 1 }
        withExtendedLifetime(context) {}
    }

    @Test func framesWithoutADecodedImageCarryTheirJPEG() async throws {
        let camera = FakeCamera()
        camera.applyLiveViewOptions([.skipImageDecoding: true])
        let source = LiveViewFrameSource(camera: camera)
        let formats = Recorder<PixelFormat>()
        let context = DataCaptureContext()
        _ = context.addProcessor { frame in formats.append(frame.pixelBuffer.format) }
        await context.setFrameSource(source)
        #expect(await source.switch(toDesiredState: .on))
        try await waitUntil("a frame") { formats.count >= 1 }
        #expect(formats.all.first == .jpeg)
        await source.switch(toDesiredState: .off)
    }

    @Test func aLiveViewThatCannotStartLeavesTheSourceOffWithTheError() async throws {
        let camera = FakeCamera()
        camera.liveView.failNextStarts(with: [ViewfinderError(.notAvailable, "no live view on this camera")])
        let source = LiveViewFrameSource(camera: camera)
        let changes = Recorder<FrameSourceStateChange>()
        let token = source.addStateListener { changes.append($0) }
        #expect(await source.switch(toDesiredState: .on) == false)
        #expect(source.currentState == .off)
        let failure = changes.all.compactMap { $0.error as? ViewfinderError }.first
        #expect(failure?.code == .notAvailable)
        withExtendedLifetime(token) {}
    }

    @Test func liveViewEndingTurnsTheSourceOff() async throws {
        let camera = FakeCamera()
        let source = LiveViewFrameSource(camera: camera)
        let changes = Recorder<FrameSourceStateChange>()
        let token = source.addStateListener { changes.append($0) }
        let context = DataCaptureContext()
        _ = context.addProcessor { _ in }
        await context.setFrameSource(source)
        #expect(await source.switch(toDesiredState: .on))
        let gone = ViewfinderError(.disconnected, "the camera closed the connection")
        camera.liveViewPublisher.terminate(.failed(gone))
        try await waitUntil("the source to go off") { source.currentState == .off }
        // Listeners hear of a change after the source's state has it.
        try await waitUntil("the listener told of the end") { changes.all.last?.error != nil }
        #expect(changes.all.last?.error as? ViewfinderError == gone)
        withExtendedLifetime(token) {}
    }
}
