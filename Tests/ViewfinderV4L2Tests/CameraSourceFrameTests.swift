import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderV4L2

@Suite struct CameraSourceFrameTests {
    let system = FakeV4L2System.twoCameras()
    let camera = CaptureDevice(
        path: "/fake/video0", name: "Fake Camera", bus: "usb", driver: "fakecam", capabilities: 0)
    let yuyv = VideoFormat(dimensions: .init(width: 640, height: 480), frameRate: 30, pixelFormat: .yuyv)

    func makeSource(converting: Bool = false) -> CameraSource {
        CameraSource(
            options: .init(convertsToNV12FullRange: converting), delegate: nil, system: system, directory: "/fake")
    }

    /// Produces one frame and waits until `sink` has received `count` frames in all.
    func produce(into sink: FrameSink, until count: Int) async throws {
        system.produce(1, at: "video0")
        try await waitUntil("\(count) frames") { sink.received.count == count }
    }

    @Test func framesReachTheContextAndFrameListenersWithoutACopy() async throws {
        let source = makeSource()
        let sink = FrameSink(keeps: true)
        let heard = Recorder<UInt64>()
        let token = source.addFrameListener { heard.append($0.sequenceNumber) }
        let context = await makeContext(for: source) { sink.receive($0) }
        #expect(try await source.startCapture(device: camera, format: yuyv) == yuyv)
        #expect(system.queuedCount(at: "video0") == 4)
        try await produce(into: sink, until: 1)
        try await produce(into: sink, until: 2)
        #expect(sink.received == [0, 1])
        #expect(heard.all == [0, 1])
        #expect(system.queuedCount(at: "video0") == 2)  // the sink keeps both frames
        let frame = sink.kept[1]
        frame.pixelBuffer.withUnsafeBytes(ofPlane: 0) { bytes in
            #expect(bytes.count == 640 * 2 * 480)
            #expect(bytes[0] == 1)  // the fake writes the sequence number into the buffer's first byte
        }
        sink.releaseAll()
        #expect(system.queuedCount(at: "video0") == 3)  // `frame` still holds one
        _ = consume frame
        try await waitUntil { system.queuedCount(at: "video0") == 4 }
        try await waitUntil { context.statistics.framesProcessed == 2 }
        await source.stopCapture()
        withExtendedLifetime(token) {}
    }

    @Test func aBusyContextMakesTheSourceDropFramesBackToTheDriverInsteadOfQueueing() async throws {
        let source = makeSource()
        let sink = FrameSink()
        let gate = Gate()
        let context = await makeContext(for: source) { frame in
            sink.receive(frame)
            if frame.sequenceNumber == 0 { gate.wait() }
        }
        try await source.startCapture(device: camera)
        try await produce(into: sink, until: 1)
        // Frame 0 is in flight; each new frame replaces the one waiting, whose buffer goes back to the driver.
        for produced in 2...11 {
            system.produce(1, at: "video0")
            try await waitUntil("frame \(produced)") {
                source.frameSourceEngine.statistics.received == produced && system.queuedCount(at: "video0") == 2
            }
        }
        let statistics = source.frameSourceEngine.statistics
        #expect(statistics.received == 11)
        #expect(statistics.queued == 1)
        #expect(statistics.dropped == 9)
        #expect(source.statistics.captured == 11)
        #expect(source.statistics.droppedWhileBuffersHeld == 0)
        gate.open()
        try await waitUntil { sink.received.count == 2 }
        #expect(sink.received == [0, 10])  // the newest frame, not the oldest
        try await waitUntil { system.queuedCount(at: "video0") == 4 }
        await source.stopCapture()
        withExtendedLifetime(context) {}
    }

    @Test func processorsThatKeepEveryLendableBufferMakeTheDriverDropInsteadOfStalling() async throws {
        let source = makeSource()
        let sink = FrameSink(keeps: true)
        let context = await makeContext(for: source) { sink.receive($0) }
        try await source.startCapture(device: camera)
        for count in 1...3 {
            try await produce(into: sink, until: count)
        }
        for dropped in 1...3 {
            #expect(system.produce(1, at: "video0") == 1)
            try await waitUntil { source.statistics.droppedWhileBuffersHeld == dropped }
        }
        #expect(sink.kept.count == 3)
        #expect(system.queuedCount(at: "video0") == 1)
        sink.releaseAll()
        try await produce(into: sink, until: 4)
        await source.stopCapture()
        withExtendedLifetime(context) {}
    }

    @Test func countsSequenceGapsAsDriverDrops() async throws {
        let source = makeSource()
        let sink = FrameSink()
        let context = await makeContext(for: source) { sink.receive($0) }
        try await source.startCapture(device: camera)
        try await produce(into: sink, until: 1)
        system.produce(1, at: "video0", skippingSequence: 5)
        try await waitUntil { sink.received.count == 2 }
        #expect(sink.received == [0, 6])
        #expect(source.statistics.droppedByDriver == 5)
        await source.stopCapture()
        withExtendedLifetime(context) {}
    }

    @Test func stoppingDiscardsTheWaitingFrameSoTheDeviceCloses() async throws {
        let source = makeSource()
        try await source.startCapture(device: camera)
        system.produce(1, at: "video0")
        // No context takes the frame: it waits in the source and holds a driver buffer.
        try await waitUntil { source.frameSourceEngine.statistics.queued == 1 }
        await source.stopCapture()
        #expect(source.frameSourceEngine.statistics.queued == 0)
        #expect(source.frameSourceEngine.statistics.dropped == 1)
        try await waitUntil { system.openDescriptors == 0 }
    }

    @Test func convertsYUYVToNV12FullRangeAndGivesTheDriverBufferBackAtOnce() async throws {
        let source = makeSource(converting: true)
        let sink = FrameSink(keeps: true)
        let context = await makeContext(for: source) { sink.receive($0) }
        #expect(try await source.startCapture(device: camera, format: yuyv) == yuyv)
        #expect(source.frameSourceEngine.acceptedPixelFormat == .nv12FullRange)
        try await produce(into: sink, until: 1)
        let frame = try #require(sink.kept.first)
        #expect(frame.pixelBuffer.format == .nv12FullRange)
        #expect(frame.pixelBuffer.width == 640 && frame.pixelBuffer.height == 480)
        let planes = frame.pixelBuffer.withUnsafePlanes { $0.map { ($0.width, $0.height) } }
        #expect(planes.count == 2 && planes[0] == (640, 480) && planes[1] == (320, 240))
        // The fake fills YUYV with 0x80: video-range luma 128 is full-range (128 - 16) × 255 / 219 ≈ 130.
        let (luma, chroma) = frame.pixelBuffer.withUnsafePlanes { planes in
            (planes[0].bytes[640 * 240 + 320], planes[1].bytes[planes[1].bytesPerRow * 120 + 160])
        }
        #expect((129...131).contains(luma))
        #expect(chroma == 128)
        // The converted frame is the processor's; the driver's buffer went back straight away.
        #expect(system.queuedCount(at: "video0") == 4)
        await source.stopCapture()
        withExtendedLifetime(context) {}
    }

    @Test func conversionDropsFramesWhenEveryPooledBufferIsHeld() async throws {
        let source = makeSource(converting: true)
        let sink = FrameSink(keeps: true)
        let context = await makeContext(for: source) { sink.receive($0) }
        try await source.startCapture(device: camera, format: yuyv)
        for count in 1...4 {
            try await produce(into: sink, until: count)
        }
        system.produce(1, at: "video0")
        try await waitUntil { source.statistics.droppedByConversion == 1 }
        #expect(system.queuedCount(at: "video0") == 4)
        sink.releaseAll()
        try await produce(into: sink, until: 5)
        #expect(sink.received == [0, 1, 2, 3, 5])
        await source.stopCapture()
        withExtendedLifetime(context) {}
    }
}
