import Dispatch
import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

@Suite struct CameraSourceTests {
    let system = FakeV4L2System.twoCameras()
    let camera = CaptureDevice(
        path: "/fake/video0", name: "Fake Camera", bus: "usb", driver: "fakecam", capabilities: 0)
    let other = CaptureDevice(path: "/fake/video1", name: "Fake Camera", bus: "usb", driver: "fakecam", capabilities: 0)

    /// A source on the fake devices.
    ///
    /// A removed device is watched for as long as the library's default: the test that plugs it back in may wait
    /// seconds for a thread on a busy machine, and must not miss the window for that.
    func makeSource(delegate: (any CameraSourceDelegate)? = nil) -> CameraSource {
        CameraSource(options: .init(), delegate: delegate, system: system, directory: "/fake")
    }

    @Test func startAndStopSetTheDeviceAroundTheirCompletionsOnTheGivenQueue() async throws {
        let source = makeSource()
        let completions = DispatchQueue(label: "completions")
        let onCompletions = DispatchSpecificKey<Bool>()
        completions.setSpecific(key: onCompletions, value: true)
        let started = Locked<(CaptureDevice?, VideoFormat?, FrameSourceState, Bool)?>(nil)
        await withCheckedContinuation { continuation in
            source.startCapture(device: camera, completionQueue: completions) { device, format, error in
                #expect(error == nil)
                #expect(device == camera)
                let onQueue = DispatchQueue.getSpecific(key: onCompletions) == true
                started.withLock { $0 = (source.device, format, source.currentState, onQueue) }
                continuation.resume()
            }
        }
        let (deviceAtStart, format, stateAtStart, onQueue) = try #require(started.withLock { $0 })
        #expect(deviceAtStart == camera)
        #expect(format?.description == "640x480@30/NV12")
        #expect(stateAtStart == .on)
        #expect(onQueue)
        #expect(source.format?.pixelFormat == .nv12VideoRange)
        #expect(system.calls.contains("STREAMON"))

        let stopped = Locked<(CaptureDevice?, FrameSourceState, Bool)?>(nil)
        await withCheckedContinuation { continuation in
            source.stopCapture(completionQueue: completions) { error in
                #expect(error == nil)
                let onQueue = DispatchQueue.getSpecific(key: onCompletions) == true
                stopped.withLock { $0 = (source.device, source.currentState, onQueue) }
                continuation.resume()
            }
        }
        #expect(stopped.withLock { $0?.0 } == nil)
        #expect(stopped.withLock { $0?.1 } == .off)
        #expect(stopped.withLock { $0?.2 } == true)
        #expect(system.calls.last(where: { $0.hasPrefix("STREAM") }) == "STREAMOFF")
        try await waitUntil { system.openDescriptors == 0 }
    }

    @Test func theSeedsCallShapesWorkAndRunInCallOrder() async throws {
        let source = makeSource()
        let order = Recorder<String>()
        // Called from synchronous code, as the seed shows them.
        func issue() {
            source.startCapture(device: camera)
            source.stopCapture()
            source.selectCaptureDevice(other)
            source.startCapture(device: camera, completion: { _, _, error in order.append("refused \(error!.code)") })
            source.stopCapture()
            source.startCapture(device: camera, completion: { _, format, _ in order.append("started \(format!)") })
            source.selectCaptureDevice(other, completion: { device, _, _ in order.append("selected \(device.path)") })
            source.stopCapture(completion: { _ in order.append("stopped") })
        }
        issue()
        try await waitUntil { order.all.count == 4 }
        // Operations run in call order (the select made the later start fail); completions run on global queues.
        #expect(
            order.all.sorted() == [
                "refused alreadyRunning", "selected /fake/video1", "started 640x480@30/NV12", "stopped",
            ])
        #expect(source.device == nil)
        try await waitUntil { system.openDescriptors == 0 }
    }

    @Test func refusesASecondStartAndSwitchesDevicesOnSelect() async throws {
        let source = makeSource()
        let changes = Recorder<String>()
        let token = source.addStateListener { changes.append("\($0.state)") }
        try await source.startCapture(device: camera)
        let error = await #expect(throws: ViewfinderError.self) { try await source.startCapture(device: other) }
        #expect(error?.code == .alreadyRunning)
        #expect(error?.message.contains("Fake Camera (/fake/video0)") == true)
        #expect(source.device == camera)
        try await source.selectCaptureDevice(other)
        #expect(source.device == other)
        await source.stopCapture()
        #expect(source.device == nil)
        try await waitUntil { system.openDescriptors == 0 }
        #expect(
            changes.all == ["starting", "on", "stopping", "off", "starting", "on", "stopping", "off"])
        withExtendedLifetime(token) {}
    }

    @Test func switchingOnUsesTheSelectedDeviceOrTheFirstOne() async throws {
        let source = makeSource()
        #expect(await source.switch(toDesiredState: .on))
        #expect(source.device?.path == camera.path)
        #expect(source.device?.driver == "fakecam")
        #expect(await source.switch(toDesiredState: .off))
        try await source.selectCaptureDevice(other)
        await source.stopCapture()
        #expect(await source.switch(toDesiredState: .on))
        #expect(source.device == other)
        #expect(await source.switch(toDesiredState: .off))
        #expect(source.device == nil)
    }

    @Test func standbyKeepsTheDeviceSetUpWithoutStreaming() async throws {
        let source = makeSource()
        #expect(await source.switch(toDesiredState: .standby))
        #expect(system.openDescriptors == 1)
        #expect(system.calls.contains("S_FMT"))
        #expect(!system.calls.contains("STREAMON"))
        #expect(source.device == nil)
        #expect(system.calls.filter { $0 == "S_PARM" }.count == 1)
        #expect(await source.switch(toDesiredState: .on))
        #expect(source.device?.path == camera.path)
        #expect(system.calls.filter { $0 == "S_PARM" }.count == 1)  // woken without setting up again
        #expect(await source.switch(toDesiredState: .standby))
        #expect(system.calls.last(where: { $0.hasPrefix("STREAM") }) == "STREAMOFF")
        #expect(system.openDescriptors == 1)
        #expect(await source.switch(toDesiredState: .off))
        try await waitUntil { system.openDescriptors == 0 }
    }

    @Test func reportsAStreamOnFailureAndLeavesNothingOpen() async throws {
        let source = makeSource()
        system.injectStreamOnError(at: "video0")
        let error = await #expect(throws: ViewfinderError.self) { try await source.startCapture(device: camera) }
        #expect(error?.message.contains("VIDIOC_STREAMON") == true)
        #expect(error?.errno == EINVAL)
        #expect(source.device == nil)
        #expect(source.currentState == .off)
        try await waitUntil { system.openDescriptors == 0 }
        try await source.startCapture(device: camera)
        #expect(source.device == camera)
        await source.stopCapture()
    }

    @Test func rejectsAFormatTheDeviceDoesNotOffer() async throws {
        let source = makeSource()
        let format = VideoFormat(
            dimensions: .init(width: 1280, height: 720), frameRate: 30, pixelFormat: .rgb24)
        let error = await #expect(throws: ViewfinderError.self) {
            try await source.startCapture(device: camera, format: format)
        }
        #expect(error?.code == .noValidFormat)
        #expect(source.currentState == .off)
    }

    /// Values a caller can pass without thinking: a size that is no size, and any buffer count.
    @Test func refusesANegativeSizeAndBringsTheBufferCountIntoRange() async throws {
        let source = makeSource()
        for dimensions in [Dimensions(width: -640, height: 480), Dimensions(width: 0, height: 0)] {
            let format = VideoFormat(dimensions: dimensions, frameRate: 30, pixelFormat: .yuyv)
            let error = await #expect(throws: ViewfinderError.self) {
                try await source.startCapture(device: camera, format: format)
            }
            #expect(error?.code == .invalidArgument, "\(dimensions)")
        }
        for count in [Int.min, -1, 0, 1_000_000, .max] {
            let counted = CameraSource(
                options: .init(bufferCount: count), delegate: nil, system: system, directory: "/fake")
            #expect(try await counted.startCapture(device: camera).dimensions.width == 640, "\(count) buffers")
            #expect(system.queuedCount(at: "video0") >= 2)
            await counted.stopCapture()
        }
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

    @Test func unplugInterruptsFailsSwitchesOffAndEndsWhenTheDeviceReturns() async throws {
        let delegate = RecordingDelegate()
        let source = makeSource(delegate: delegate)
        let changes = Recorder<FrameSourceStateChange>()
        let token = source.addStateListener { changes.append($0) }
        try await source.startCapture(device: camera)
        system.setDisconnected(true, at: "video0")
        try await waitUntil { delegate.events.withLock { $0.count } == 2 }
        #expect(delegate.events.withLock { $0 } == ["interrupted deviceRemoved", "failed deviceRemoved"])
        #expect(source.device == nil)
        #expect(source.currentState == .off)
        let last = try #require(changes.all.last)
        #expect(last.previousState == .on && last.state == .off)
        #expect((last.error as? ViewfinderError)?.code == .deviceRemoved)
        system.setDisconnected(false, at: "video0")
        try await waitUntil { delegate.events.withLock { $0.count } == 3 }
        #expect(delegate.events.withLock { $0.last } == "interruption ended")
        try await source.startCapture(device: camera)
        await source.stopCapture()
        withExtendedLifetime(token) {}
    }

    @Test func fatalStreamingErrorFailsWithIO() async throws {
        let delegate = RecordingDelegate()
        let source = makeSource(delegate: delegate)
        try await source.startCapture(device: camera)
        system.injectFatalError(at: "video0")
        try await waitUntil { delegate.events.withLock { $0.count } == 2 }
        #expect(delegate.events.withLock { $0 } == ["interrupted streamingError", "failed io"])
        #expect(source.device == nil)
        #expect(source.currentState == .off)
        await source.stopCapture()
    }
}
