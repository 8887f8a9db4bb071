import Testing
import ViewfinderConcurrency
import ViewfinderCore

@testable import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

/// Records a source's delegate calls.
final class RecordingDelegate: CameraSourceDelegate {
    let events = Locked<[String]>([])

    func cameraSourceWasInterrupted(_ source: CameraSource, reason: CameraSourceInterruptionReason) {
        events.withLock { $0.append("interrupted \(reason)") }
    }

    func cameraSourceInterruptionEnded(_ source: CameraSource) {
        events.withLock { $0.append("interruption ended") }
    }

    func cameraSource(_ source: CameraSource, didFailWithError error: ViewfinderError) {
        events.withLock { $0.append("failed \(error.code)") }
    }
}

/// Frames a handler received, optionally kept alive.
final class FrameSink: Sendable {
    private let frames = Locked<[Frame]>([])
    private let sequences = Locked<[UInt64]>([])
    let keeps: Bool

    init(keeps: Bool = false) { self.keeps = keeps }

    func receive(_ frame: Frame) {
        sequences.withLock { $0.append(frame.sequenceNumber) }
        if keeps { frames.withLock { $0.append(frame) } }
    }

    var received: [UInt64] { sequences.withLock { $0 } }
    var kept: [Frame] { frames.withLock { $0 } }

    func releaseAll() {
        let released = frames.withLock { frames in
            defer { frames = [] }
            return frames
        }
        _ = released
    }
}

/// Polls a condition for up to two seconds (the fake's capture thread runs on its own).
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<400 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}

@Suite struct CameraSourceTests {
    let system = FakeV4L2System(nodes: ["video0": .init(), "video1": .init()])
    let camera = CaptureDevice(
        path: "/fake/video0", name: "Fake Camera", bus: "usb", driver: "fakecam", capabilities: 0)
    let other = CaptureDevice(path: "/fake/video1", name: "Fake Camera", bus: "usb", driver: "fakecam", capabilities: 0)

    func makeSource(delegate: (any CameraSourceDelegate)? = nil) -> CameraSource {
        CameraSource(
            options: .init(recoveryTimeout: .seconds(2)), delegate: delegate, system: system, directory: "/fake")
    }

    @Test func startChoosesAFormatAndSetsTheDeviceByTheStartedCompletion() async throws {
        let source = makeSource()
        let seen = Locked<(CaptureDevice?, VideoFormat?)?>(nil)
        await withCheckedContinuation { continuation in
            source.startCapture(device: camera) { device, format, error in
                #expect(error == nil)
                seen.withLock { $0 = (source.device, format) }
                continuation.resume()
            }
        }
        #expect(seen.withLock { $0?.0 } == camera)
        #expect(seen.withLock { $0?.1 }?.description == "640x480@30/NV12")
        #expect(source.format?.pixelFormat == .nv12VideoRange)
        #expect(system.calls.contains("STREAMON"))
        let deviceAtStop = Locked<CaptureDevice??>(nil)
        await withCheckedContinuation { continuation in
            source.stopCapture { error in
                deviceAtStop.withLock { $0 = .some(source.device) }
                continuation.resume()
            }
        }
        #expect(deviceAtStop.withLock { $0 } == .some(nil))
        #expect(system.calls.last(where: { $0.hasPrefix("STREAM") }) == "STREAMOFF")
    }

    @Test func deliversZeroCopyFramesAndReturnsBuffersWhenTheLastReferenceGoes() async throws {
        let source = makeSource()
        let sink = FrameSink(keeps: true)
        source.setFrameHandler { sink.receive($0) }
        let format = VideoFormat(
            dimensions: .init(width: 640, height: 480), frameRate: FrameRate(30), pixelFormat: .yuyv)
        #expect(try await source.startCapture(device: camera, format: format) == format)
        #expect(system.queuedCount(at: "video0") == 4)
        system.produce(2, at: "video0")
        #expect(await eventually { sink.received.count == 2 })
        #expect(system.queuedCount(at: "video0") == 2)
        let frame = sink.kept[1]
        #expect(frame.sequenceNumber == 1)
        frame.pixelBuffer.withUnsafeBytes(ofPlane: 0) { bytes in
            #expect(bytes.count == 640 * 2 * 480)
            #expect(bytes[0] == 1)  // the fake writes the sequence number into the buffer's first byte
        }
        sink.releaseAll()
        #expect(system.queuedCount(at: "video0") == 3)  // `frame` still holds one
        _ = consume frame
        #expect(system.queuedCount(at: "video0") == 4)
        await source.stopCapture()
    }

    @Test func dropsInsteadOfStallingWhenTheConsumerHoldsEveryLendableBuffer() async throws {
        let source = makeSource()
        let sink = FrameSink(keeps: true)
        source.setFrameHandler { sink.receive($0) }
        try await source.startCapture(device: camera)
        for _ in 0..<6 {
            system.produce(1, at: "video0")
            _ = await eventually { system.queuedCount(at: "video0") >= 1 && system.calls.last != "DQBUF" }
        }
        #expect(await eventually { source.statistics.droppedForBackpressure == 3 })
        #expect(sink.kept.count == 3)
        #expect(system.queuedCount(at: "video0") == 1)
        sink.releaseAll()
        system.produce(1, at: "video0")
        #expect(await eventually { sink.received.count == 4 })
        await source.stopCapture()
    }

    @Test func countsSequenceGapsAsDriverDrops() async throws {
        let source = makeSource()
        let sink = FrameSink()
        source.setFrameHandler { sink.receive($0) }
        try await source.startCapture(device: camera)
        system.produce(1, at: "video0")
        #expect(await eventually { sink.received.count == 1 })
        system.produce(1, at: "video0", skippingSequence: 5)
        #expect(await eventually { sink.received.count == 2 })
        #expect(sink.received == [0, 6])
        #expect(source.statistics.droppedByDriver == 5)
        await source.stopCapture()
    }

    @Test func refusesASecondStartAndSwitchesDevicesOnSelect() async throws {
        let source = makeSource()
        try await source.startCapture(device: camera)
        let error = await #expect(throws: ViewfinderError.self) { try await source.startCapture(device: other) }
        #expect(error?.code == .alreadyRunning)
        #expect(source.device == camera)
        try await source.selectCaptureDevice(other)
        #expect(source.device == other)
        await source.stopCapture()
        #expect(source.device == nil)
        #expect(await eventually { system.openDescriptors == 0 })
    }

    @Test func reportsAStreamOnFailureAndLeavesNothingOpen() async throws {
        let source = makeSource()
        system.injectStreamOnError(at: "video0")
        let error = await #expect(throws: ViewfinderError.self) { try await source.startCapture(device: camera) }
        #expect(error?.message.contains("VIDIOC_STREAMON") == true)
        #expect(error?.errno == EINVAL)
        #expect(source.device == nil)
        #expect(await eventually { system.openDescriptors == 0 })
        try await source.startCapture(device: camera)
        #expect(source.device == camera)
        await source.stopCapture()
    }

    @Test func rejectsAFormatTheDeviceDoesNotOffer() async throws {
        let source = makeSource()
        let format = VideoFormat(
            dimensions: .init(width: 1280, height: 720), frameRate: FrameRate(30), pixelFormat: .rgb24)
        let error = await #expect(throws: ViewfinderError.self) {
            try await source.startCapture(device: camera, format: format)
        }
        #expect(error?.code == .noValidFormat)
    }

    @Test func reportsBusyAndMissingDevices() async throws {
        system.update("video1") { $0.openError = EBUSY }
        let source = makeSource()
        let busy = await #expect(throws: ViewfinderError.self) { try await source.startCapture(device: other) }
        #expect(busy?.code == .deviceBusy)
        let missing = CaptureDevice(path: "/fake/video9", name: "", bus: "", driver: "", capabilities: 0)
        let gone = await #expect(throws: ViewfinderError.self) { try await source.startCapture(device: missing) }
        #expect(gone?.code == .notFound)
    }

    @Test func unplugInterruptsFailsAndEndsWhenTheDeviceReturns() async throws {
        let delegate = RecordingDelegate()
        let source = makeSource(delegate: delegate)
        try await source.startCapture(device: camera)
        system.setDisconnected(true, at: "video0")
        #expect(await eventually { delegate.events.withLock { $0.count } == 2 })
        #expect(delegate.events.withLock { $0 } == ["interrupted deviceRemoved", "failed deviceRemoved"])
        #expect(source.device == nil)
        system.setDisconnected(false, at: "video0")
        #expect(await eventually { delegate.events.withLock { $0.count } == 3 })
        #expect(delegate.events.withLock { $0.last } == "interruption ended")
        await source.stopCapture()
    }

    @Test func fatalStreamingErrorFailsWithIO() async throws {
        let delegate = RecordingDelegate()
        let source = makeSource(delegate: delegate)
        try await source.startCapture(device: camera)
        system.injectFatalError(at: "video0")
        #expect(await eventually { delegate.events.withLock { $0.count } == 2 })
        #expect(delegate.events.withLock { $0 } == ["interrupted streamingError", "failed io"])
        #expect(source.device == nil)
        await source.stopCapture()
    }
}
