import ViewfinderCore
import ViewfinderSystem
import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

/// vivid's fault-injection controls (class 0x00f0f000).
enum VividControl {
    static let percentageOfDroppedBuffers: UInt32 = 0x00f0_f040
    static let disconnect: UInt32 = 0x00f0_f041
    static let injectStreamOnError: UInt32 = 0x00f0_f045
    static let injectFatalStreamingError: UInt32 = 0x00f0_f046
}

/// Sets a control on a node through a descriptor of its own, as another program would.
func setControl(_ id: UInt32, to value: Int32, on path: String) throws {
    let device = CaptureDevice(path: path, name: "", bus: "", driver: "", capabilities: 0)
    try CameraSource.setValue(value, ofControl: id, on: device)
}

/// A camera source set on a context whose processor records every frame in a log.
struct Pipeline {
    let source: CameraSource
    let context = DataCaptureContext()
    let log: FrameLog

    init(
        options: CameraSource.Options = .init(), delegate: (any CameraSourceDelegate)? = nil,
        log: FrameLog = FrameLog()
    ) async {
        source = CameraSource(options: options, delegate: delegate)
        self.log = log
        context.addProcessor { log.record($0) }
        await context.setFrameSource(source)
    }
}

/// What a capture recorded: the format it ran in, the frames, and the source's and its engine's counts.
struct CaptureRun {
    var format: VideoFormat
    var log: FrameLog
    var statistics: CameraSourceStatistics
    var engine: FrameSourceStatistics
}

/// Starts capture in `format`, records frames for `duration`, stops, and returns what was recorded.
func capture(
    from device: CaptureDevice, format: VideoFormat?, for duration: Duration, options: CameraSource.Options = .init()
) async throws -> CaptureRun {
    let pipeline = await Pipeline(options: options)
    let source = pipeline.source
    let chosen =
        if let format { try await source.startCapture(device: device, format: format) } else {
            try await source.startCapture(device: device)
        }
    try expect(source.device == device, "device is \(String(describing: source.device)) after the start, not \(device)")
    try await Task.sleep(for: duration)
    let statistics = source.statistics
    await source.stopCapture()
    try expect(source.device == nil, "device is still set after the stop")
    return CaptureRun(
        format: chosen, log: pipeline.log, statistics: statistics, engine: source.frameSourceEngine.statistics)
}

/// Checks frame sizes, increasing sequence numbers and the measured rate of a capture.
func verifyStream(_ log: FrameLog, format: VideoFormat, expectedPlaneBytes: [Int]) throws -> String {
    let entries = log.all
    try expect(entries.count >= 10, "only \(entries.count) frames arrived")
    for entry in entries {
        try expect(
            entry.width == format.dimensions.width && entry.height == format.dimensions.height,
            "a frame is \(entry.width)x\(entry.height), not \(format.dimensions)")
        try expect(entry.planeBytes == expectedPlaneBytes, "plane sizes \(entry.planeBytes), not \(expectedPlaneBytes)")
    }
    for (previous, next) in zip(entries, entries.dropFirst()) {
        try expect(next.sequence > previous.sequence, "sequence went from \(previous.sequence) to \(next.sequence)")
        try expect(next.timestamp > previous.timestamp, "timestamps did not increase at sequence \(next.sequence)")
    }
    let span = entries.last!.timestamp.duration(since: entries.first!.timestamp)
    let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
    let rate = Double(entries.count - 1) / seconds
    let wanted = format.frameRate.framesPerSecond
    try expect(abs(rate - wanted) <= wanted * 0.1, "measured \(rate) fps, more than 10% away from \(wanted) fps")
    let gaps = zip(entries, entries.dropFirst()).filter { $1.sequence != $0.sequence + 1 }.count
    return "\(entries.count) frames, \(String(format3: rate)) fps measured, \(gaps) sequence gaps"
}

extension String {
    init(format3 value: Double) {
        let scaled = Int((value * 1000).rounded())
        let fraction = String(abs(scaled) % 1000)
        self = "\(scaled / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

func runCaptureChecks(_ runner: CheckRunner) async {
    var devices: [CaptureDevice] = []
    await runner.run("device-listing") {
        devices = CameraSource.captureDevices
        try expect(devices.map(\.path) == ["/dev/video0", "/dev/video1"], "capture devices are \(devices)")
        try expect(devices.allSatisfy { $0.driver == "vivid" && $0.bus.hasPrefix("platform:vivid") }, "\(devices)")
        let nodes = (0..<8).map { (number: Int) -> String in "/dev/video\(number)" }.filter { access($0, F_OK) == 0 }
        try expect(nodes.count == 3, "expected three vivid nodes (two capture, one output), found \(nodes)")
        try expect(CameraSource.captureDevice(for: .unspecified) == devices.first, "captureDevice(for:) disagrees")
        try expect(CameraSource.captureDevice(for: .unspecified, type: .virtual) == devices.first, "type .virtual")
        try expect(CameraSource.captureDevice(for: .unspecified, type: .usb) == nil, "found a USB device in the VM")
        return devices.map {
            "\($0.path) \($0.name) \($0.bus) \($0.driver) caps 0x\(String($0.capabilities, radix: 16))"
        }
        .joined(separator: "; ") + "; output node \(nodes.last!) left out"
    }
    guard let camera = devices.first else { return }

    await runner.run("formats") {
        let device = try V4L2Device(path: camera.path)
        let codes = try device.formats().map(\.pixelFormat)
        try expect(codes.count >= 20, "vivid lists \(codes.count) pixel formats")
        for wanted: FourCharacterCode in ["YUYV", "NV12", "UYVY", "YU12", "RGB3"] {
            try expect(codes.contains(wanted), "\(wanted) is not listed among \(codes)")
        }
        let formats = CameraSource.supportedFormats(for: camera)
        try expect(formats.map(\.dimensions) == formats.map(\.dimensions).sorted(), "formats are not ordered by size")
        let sizes = Set(formats.map(\.dimensions.description))
        for size in ["320x180", "640x360", "640x480", "1280x720", "1920x1080"] {
            try expect(sizes.contains(size), "no format at \(size); sizes \(sizes.sorted())")
        }
        let nv12At640 = formats.filter { $0.pixelFormat.fourCC == "NV12" && $0.dimensions.description == "640x480" }
        try expect(
            nv12At640.map(\.frameRate).max() == 25, "640x480 NV12 rates \(nv12At640.map(\.frameRate))")
        let yuyv360 = formats.filter { $0.pixelFormat == .yuyv && $0.dimensions.description == "640x360" }
        try expect(yuyv360.contains { $0.frameRate == 30 }, "640x360 YUYV rates \(yuyv360.map(\.frameRate))")
        let pixelFormats = Set(formats.map(\.pixelFormat.description)).sorted()
        return "\(codes.count) V4L2 formats, \(formats.count) VideoFormats in \(pixelFormats), \(sizes.count) sizes"
    }

    await runner.run("controls") {
        let controls = try CameraSource.controls(for: camera)
        let byName = Dictionary(controls.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let brightness = try require(byName["Brightness"], "no Brightness among \(controls.map(\.name))")
        try expect(brightness.id == V4L2ControlID.brightness, "Brightness has id \(brightness.id)")
        try expect(brightness.type == .integer && brightness.minimum == 0 && brightness.maximum == 255, "\(brightness)")
        for name in ["Contrast", "Saturation", "Hue", "Gain", "Gain, Automatic"] {
            try expect(byName[name] != nil, "no \(name) among \(controls.map(\.name))")
        }
        let pattern = try require(byName["Test Pattern"], "no Test Pattern menu")
        try expect(pattern.type == .menu && pattern.menu.count >= 10, "Test Pattern menu \(pattern.menu.map(\.name))")
        let disconnect = try require(controls.first { $0.id == VividControl.disconnect }, "no Disconnect control")
        try expect(disconnect.type == .button, "Disconnect is a \(disconnect.type)")
        try expect(try CameraSource.setValue(77, ofControl: V4L2ControlID.brightness, on: camera) == 77, "set failed")
        try expect(try CameraSource.value(ofControl: V4L2ControlID.brightness, on: camera) == 77, "get disagrees")
        try CameraSource.setValue(Int32(brightness.defaultValue), ofControl: V4L2ControlID.brightness, on: camera)
        let types = Set(controls.map { "\($0.type)" }).sorted()
        return "\(controls.count) controls of types \(types); Test Pattern has \(pattern.menu.count) entries"
    }

    await runner.run("automatic-format") {
        let run = try await capture(from: camera, format: nil, for: .milliseconds(600))
        let format = run.format
        try expect(format.dimensions == Dimensions(width: 640, height: 480), "chose \(format)")
        try expect(format.pixelFormat.fourCC == "NV12" && format.frameRate == 25, "chose \(format)")
        try expect(run.log.count > 0, "no frames arrived")
        return "chose \(format)"
    }

    for pixelFormat in [PixelFormat.yuyv, .nv12VideoRange] {
        let name = "capture-\(pixelFormat.fourCC)-640x480@25"
        await runner.run(name) {
            let wanted = VideoFormat(
                dimensions: Dimensions(width: 640, height: 480), frameRate: 25, pixelFormat: pixelFormat)
            let run = try await capture(from: camera, format: wanted, for: .seconds(3))
            try expect(run.format == wanted, "started \(run.format), not \(wanted)")
            let planes = pixelFormat == .yuyv ? [640 * 2 * 480] : [640 * 480, 640 * 240]
            return try verifyStream(run.log, format: run.format, expectedPlaneBytes: planes)
                + ", \(run.statistics.droppedByDriver) dropped by the driver, \(run.engine.dropped) by the source"
        }
    }

    await runner.run("start-after-stop") {
        let pipeline = await Pipeline()
        let (source, log) = (pipeline.source, pipeline.log)
        var counts: [Int] = []
        for _ in 0..<3 {
            let before = log.count
            try await source.startCapture(device: camera)
            try expect(await wait(upTo: .seconds(5)) { log.count >= before + 3 }, "no frames after restart")
            await source.stopCapture()
            counts.append(log.count - before)
        }
        let again = try await source.startCapture(device: camera)
        do {
            try await source.startCapture(device: camera)
            throw CheckFailure(description: "a second start while running succeeded")
        } catch let error as ViewfinderError {
            try expect(error.code == .alreadyRunning, "a second start failed with \(error), not alreadyRunning")
        }
        await source.stopCapture()
        return "three start/stop rounds got \(counts) frames; a start while running at \(again) is refused"
    }

    await runner.run("backpressure") {
        let pipeline = await Pipeline(log: FrameLog(holdsFrames: true))
        let (source, log) = (pipeline.source, pipeline.log)
        try await source.startCapture(device: camera)
        try await Task.sleep(for: .seconds(1))
        let held = log.count
        let dropped = source.statistics.droppedWhileBuffersHeld
        try expect(held == 3, "the consumer holds \(held) frames; four buffers should lend at most three")
        try expect(dropped > 0, "no frame was dropped while the consumer held every lendable buffer")
        log.releaseHeld()
        try expect(await wait(upTo: .seconds(3)) { log.count >= held + 3 }, "frames did not resume after release")
        log.releaseHeld()
        await source.stopCapture()
        return "held \(held) frames, \(dropped) dropped meanwhile, delivery resumed after release"
    }

    await runPixelFormatChecks(runner, camera: camera)
    await runControlChecks(runner, camera: camera)
    await runFrameSourceChecks(runner, camera: camera)

    await runner.run("dropped-buffers") {
        try setControl(VividControl.percentageOfDroppedBuffers, to: 50, on: camera.path)
        defer { try? setControl(VividControl.percentageOfDroppedBuffers, to: 0, on: camera.path) }
        let run = try await capture(from: camera, format: nil, for: .seconds(2))
        let dropped = run.statistics.droppedByDriver
        let entries = run.log.all
        let gaps = zip(entries, entries.dropFirst()).reduce(0) { $0 + Int($1.1.sequence - $1.0.sequence - 1) }
        try expect(gaps > 0, "no sequence gaps with half the buffers dropped (\(entries.count) frames)")
        // Every frame the driver delivered was processed unless the source dropped it (while the context was busy,
        // or waiting at the stop); without such drops the gaps are exactly the driver's.
        if run.engine.dropped == 0 {
            try expect(dropped == gaps, "statistics count \(dropped) driver drops, sequence gaps say \(gaps)")
        } else {
            try expect(
                dropped >= gaps - run.engine.dropped,
                "statistics count \(dropped) driver and \(run.engine.dropped) source drops, sequence gaps say \(gaps)")
        }
        return "\(entries.count) frames, \(gaps) frames missing from the sequence, counted as \(dropped) driver drops"
            + " (and \(run.engine.dropped) source drops)"
    }

    await runner.run("streamon-error") {
        try setControl(VividControl.injectStreamOnError, to: 1, on: camera.path)
        let source = CameraSource()
        do {
            try await source.startCapture(device: camera)
            await source.stopCapture()
            throw CheckFailure(description: "start succeeded despite the injected VIDIOC_STREAMON error")
        } catch let error as ViewfinderError {
            try expect(error.message.contains("VIDIOC_STREAMON"), "the error does not name STREAMON: \(error)")
            try expect(source.device == nil, "device is set after a failed start")
            try await source.startCapture(device: camera)
            await source.stopCapture()
            return "start failed with \(error); the next start worked"
        }
    }

    await runner.run("fatal-streaming-error") {
        let result = try await failWhileStreaming(camera, control: VividControl.injectFatalStreamingError, ends: false)
        try expect(result.reason == .streamingError, "interruption reason \(String(describing: result.reason))")
        try expect(result.error?.code == .io && result.error?.errno == EIO, "\(String(describing: result.error))")
        return result.summary
    }

    await runner.run("disconnect") {
        let result = try await failWhileStreaming(camera, control: VividControl.disconnect, ends: true)
        try expect(result.reason == .deviceRemoved, "interruption reason \(String(describing: result.reason))")
        try expect(result.error?.code == .deviceRemoved, "\(String(describing: result.error))")
        try expect(result.ended, "no interruption-ended report after vivid reconnected")
        return result.summary + ", interruption ended after vivid reconnected"
    }

    await runDisconnectDuringCaptureCheck(runner, camera: camera)
}

struct FailureReport {
    var reason: CameraSourceInterruptionReason?
    var error: ViewfinderError?
    var ended: Bool
    var summary: String
}

/// Streams, triggers a vivid fault control, and checks both delegate reports arrive within a second.
///
/// With `ends`, also waits up to 5 s for the end of the interruption (vivid reconnects once every descriptor closes).
func failWhileStreaming(_ camera: CaptureDevice, control: UInt32, ends: Bool) async throws -> FailureReport {
    let log = DelegateLog()
    let pipeline = await Pipeline(options: .init(recoveryTimeout: .seconds(10)), delegate: log)
    let (source, frames) = (pipeline.source, pipeline.log)
    let changes = Locked<[FrameSourceStateChange]>([])
    let token = source.addStateListener { change in changes.withLock { $0.append(change) } }
    defer { withExtendedLifetime(token) {} }
    try await source.startCapture(device: camera)
    try expect(await wait(upTo: .seconds(5)) { frames.count >= 3 }, "no frames before the fault")
    let triggered = MonotonicTimestamp.now()
    try setControl(control, to: 1, on: camera.path)
    let reported = await wait(upTo: .seconds(1)) { log.all.count >= 2 }
    let events = log.all
    try expect(reported, "within 1 s the delegate heard only \(events.map(\.1))")
    let latest = events.prefix(2).map { $0.0.duration(since: triggered) }.max()!
    try expect(source.device == nil, "device is still set after the failure")
    try expect(source.currentState == .off, "the source is \(source.currentState) after the failure, not off")
    let offChange = changes.withLock { $0.last }
    try expect(offChange?.error != nil, "the last state change \(String(describing: offChange)) carries no error")
    var reason: CameraSourceInterruptionReason?
    var error: ViewfinderError?
    for (_, event) in events.prefix(2) {
        switch event {
        case .interrupted(let why): reason = why
        case .failed(let failure): error = failure
        default: break
        }
    }
    var ended = false
    if ends {
        ended = await wait(upTo: .seconds(5)) {
            log.all.contains { if case .interruptionEnded = $0.1 { true } else { false } }
        }
    }
    let stopStart = MonotonicTimestamp.now()
    await source.stopCapture()
    let summary =
        "interrupted (\(String(describing: reason))) and failed (\(error?.description ?? "-")) "
        + "within \(latest) of the fault; stopCapture afterwards took \(MonotonicTimestamp.now().duration(since: stopStart))"
    return FailureReport(reason: reason, error: error, ended: ended, summary: summary)
}
