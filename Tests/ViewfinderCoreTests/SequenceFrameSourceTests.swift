import Synchronization
import Testing
import ViewfinderTestSupport

@testable import ViewfinderCore

@Suite struct SequenceFrameSourceTests {
    @Test func framesWaitInOrderUntilTheSourceIsOnAndAttachedAndTheOldestAreDropped() async throws {
        let source = SequenceFrameSource()
        let context = DataCaptureContext()
        let processor = RecordingProcessor()
        context.addProcessor(processor)

        #expect(source.add(makeFrame(0)) == .accepted)
        #expect(source.add(makeFrame(1)) == .accepted)
        #expect(source.add(makeFrame(2)) == .accepted)
        #expect(source.add(makeFrame(3)) == .acceptedDroppingOldest)
        #expect(source.add(makeFrame(4)) == .acceptedDroppingOldest)

        // On but not attached: nothing flows.
        await source.switch(toDesiredState: .on)
        #expect(source.statistics.queued == 3)
        // Attached and on: the three newest frames, oldest first.
        await context.setFrameSource(source)
        try await waitUntil("the queue to drain") { processor.seen.count == 3 }
        #expect(processor.seen.all == [2, 3, 4])
        let statistics = source.statistics
        #expect(statistics.received == 5)
        #expect(statistics.delivered == 3)
        #expect(statistics.dropped == 2)
        #expect(statistics.queued == 0)
        withExtendedLifetime(context) {}
    }

    @Test func attachedButOffKeepsFramesQueuedAndSwitchingOffKeepsTheQueue() async throws {
        let source = SequenceFrameSource()
        let context = DataCaptureContext()
        let processor = RecordingProcessor()
        context.addProcessor(processor)
        await context.setFrameSource(source)

        source.add(makeFrame(0))
        source.add(makeFrame(1))
        #expect(source.statistics.queued == 2)
        #expect(source.statistics.delivered == 0)

        await source.switch(toDesiredState: .on)
        try await waitUntil("the queued frames") { processor.seen.count == 2 }

        await source.switch(toDesiredState: .off)
        source.add(makeFrame(2))
        source.add(makeFrame(3))
        await source.switch(toDesiredState: .standby)
        source.add(makeFrame(4))
        #expect(source.statistics.queued == 3)
        #expect(source.statistics.delivered == 2)
        #expect(processor.seen.all == [0, 1])

        await source.switch(toDesiredState: .on)
        try await waitUntil("the frames kept while off") { processor.seen.count == 5 }
        #expect(processor.seen.all == [0, 1, 2, 3, 4])
        withExtendedLifetime(context) {}
    }

    @Test func framesOtherThanNV12FullRangeAreRejectedWithAClearError() {
        let source = SequenceFrameSource()
        for format in [PixelFormat.nv12VideoRange, .i420, .bgra, .yuyv] {
            let result = source.add(makeFrame(0, format: format))
            guard case .rejected(let error) = result else {
                Issue.record("\(format) was \(result)")
                continue
            }
            #expect(error.code == .unsupportedPixelFormat)
            #expect(error.message.contains("NV12 (full range)"))
            #expect(error.message.contains(format.name))
            #expect(!result.isAccepted)
        }
        let statistics = source.statistics
        #expect(statistics.rejected == 4)
        #expect(statistics.received == 0)
        #expect(statistics.queued == 0)
        #expect(source.add(makeFrame(1)).isAccepted)
    }

    @Test func frontCameraFramesAreMirroredAndUnspecifiedOnesNever() async throws {
        let front = SequenceFrameSource(captureDevicePosition: .front, lensPosition: 0.5)
        let plain = SequenceFrameSource()
        #expect(plain.captureDevicePosition == .unspecified)
        #expect(plain.lensPosition == 1)
        #expect(front.lensPosition == 0.5)
        for (source, expected) in [(front, true), (plain, false)] {
            let processor = RecordingProcessor()
            let context = await startPipeline(source, processor: processor)
            source.add(makeFrame(0, isMirrored: !expected))
            try await waitUntil("the frame") { processor.seen.count == 1 }
            #expect(processor.mirrored.all == [expected])
            withExtendedLifetime(context) {}
        }
    }

    @Test func theQueueCapacityIsChecked() throws {
        #expect(throws: ViewfinderError.self) { try SequenceFrameSource(queueCapacity: 0) }
        #expect(throws: ViewfinderError.self) {
            try SequenceFrameSource(queueCapacity: SequenceFrameSource.maximumQueueCapacity + 1)
        }
        let source = try SequenceFrameSource(captureDevicePosition: .back, queueCapacity: 1)
        #expect(source.add(makeFrame(0)) == .accepted)
        #expect(source.add(makeFrame(1)) == .acceptedDroppingOldest)
        #expect(source.statistics.queued == 1)
        #expect(source.frameSourceEngine.queueCapacity == 1)
    }

    @Test func addCompilesInTheShapeOfTheReferenceCode() {
        let frameSource = SequenceFrameSource(captureDevicePosition: .front, lensPosition: 1.0)
        frameSource.switch(toDesiredState: .on)
        frameSource.add(makeFrame(0))
        #expect(frameSource.statistics.received == 1)
    }
}

@Suite struct ImageFrameSourceTests {
    @Test func emitsTheImageOnceEachTimeItIsSwitchedOnThenTurnsOff() async throws {
        let image = makeFrame(0, format: .bgra).pixelBuffer
        let source = ImageFrameSource(image: image, orientation: .right)
        let context = DataCaptureContext()
        let frames = Recorder<Frame>()
        context.addProcessor { frames.append($0) }
        await context.setFrameSource(source)

        #expect(await source.switch(toDesiredState: .on))
        try await waitUntil("the image") { frames.count == 1 }
        try await waitUntil("the source to turn itself off") { source.currentState == .off }
        #expect(source.desiredState == .off)

        #expect(await source.switch(toDesiredState: .on))
        try await waitUntil("the image again") { frames.count == 2 }
        try await waitUntil("the source to turn itself off again") { source.currentState == .off }

        let emitted = frames.all
        #expect(emitted.map(\.sequenceNumber) == [1, 2])
        #expect(emitted.allSatisfy { $0.pixelBuffer.isSameBuffer(as: image) && $0.orientation == .right })
        #expect(source.frameSourceEngine.statistics.delivered == 2)
        withExtendedLifetime(context) {}
    }
}
