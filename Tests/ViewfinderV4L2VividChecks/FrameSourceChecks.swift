import ViewfinderCore
import ViewfinderSystem
import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

/// Checks of the camera source as a frame source: its states, conversion to NV12 full range, and a context whose
/// processor is slower than the camera.
func runFrameSourceChecks(_ runner: CheckRunner, camera: CaptureDevice) async {
    let yuyv = VideoFormat(dimensions: .init(width: 640, height: 480), frameRate: 25, pixelFormat: .yuyv)

    await runner.run("frame-source-states") {
        let pipeline = await Pipeline()
        let (source, log) = (pipeline.source, pipeline.log)
        let changes = Locked<[String]>([])
        let token = source.addStateListener { change in changes.withLock { $0.append("\(change.state)") } }
        defer { withExtendedLifetime(token) {} }
        // Nothing selected: switching takes the first capture device.
        try expect(await source.switch(toDesiredState: .standby), "the source did not reach standby")
        try await Task.sleep(for: .milliseconds(300))
        try expect(source.device == nil && log.count == 0, "standby delivered \(log.count) frames")
        try expect(await source.switch(toDesiredState: .on), "the source did not switch on from standby")
        try expect(source.device == camera, "switched on with \(String(describing: source.device))")
        try expect(await wait(upTo: .seconds(5)) { log.count >= 5 }, "only \(log.count) frames after switching on")
        try expect(await source.switch(toDesiredState: .off), "the source did not switch off")
        try expect(source.device == nil, "the device is still set after switching off")
        let afterOff = log.count
        try await Task.sleep(for: .milliseconds(300))
        try expect(log.count == afterOff, "\(log.count - afterOff) frames arrived while off")
        try await source.startCapture(device: camera, format: yuyv)
        try expect(source.currentState == .on, "startCapture left the source \(source.currentState)")
        await source.stopCapture()
        let seen = changes.withLock { $0 }
        let expected = [
            "bootingUp", "standby", "wakingUp", "on", "stopping", "off", "starting", "on", "stopping", "off",
        ]
        try expect(seen == expected, "state changes \(seen)")
        return "states \(seen.joined(separator: " → ")); \(afterOff) frames while on, none in standby or off"
    }

    await runner.run("nv12-conversion") {
        let plain = try await capture(from: camera, format: yuyv, for: .seconds(1))
        let run = try await capture(
            from: camera, format: yuyv, for: .seconds(3), options: .init(convertsToNV12FullRange: true))
        try expect(run.format == yuyv, "the device captured in \(run.format), not \(yuyv)")
        let entries = run.log.all
        try expect(entries.allSatisfy { $0.format == .nv12FullRange }, "formats \(Set(entries.map(\.format.name)))")
        let delivered = VideoFormat(dimensions: yuyv.dimensions, frameRate: yuyv.frameRate, pixelFormat: .nv12FullRange)
        let stream = try verifyStream(run.log, format: delivered, expectedPlaneBytes: [640 * 480, 640 * 240])
        let plainLuma = plain.log.all.dropFirst(2)
        try expect(!plainLuma.isEmpty, "no YUYV frames to compare with")
        let plainMean = plainLuma.map(\.meanLuma).reduce(0, +) / Double(plainLuma.count)
        let convertedMean = entries.map(\.meanLuma).reduce(0, +) / Double(entries.count)
        let expectedMean = (plainMean - 16) * 255 / 219
        try expect(
            abs(convertedMean - expectedMean) <= 4,
            "mean luma \(convertedMean) converted, \(expectedMean) expected from \(plainMean) in YUYV")
        let plainBlack = plainLuma.map(\.minimumLuma).min() ?? 0
        let convertedBlack = entries.map(\.minimumLuma).max() ?? 255
        try expect(plainBlack >= 14, "YUYV black is \(plainBlack), below video range")
        try expect(convertedBlack <= 3, "converted black is \(convertedBlack), not full range")
        return "\(stream); mean luma \(String(format3: convertedMean)) (YUYV \(String(format3: plainMean)) → "
            + "\(String(format3: expectedMean)) expected), black \(plainBlack) → \(convertedBlack), "
            + "\(run.statistics.droppedByConversion) dropped by conversion"
    }

    await runner.run("context-slow-processor") {
        let source = CameraSource()
        let context = DataCaptureContext()
        let sequences = Locked<[UInt64]>([])
        context.addProcessor { frame in
            sequences.withLock { $0.append(frame.sequenceNumber) }
            usleep(200_000)  // a processor that manages 5 of the camera's 25 frames a second
        }
        await context.setFrameSource(source)
        try await source.startCapture(device: camera, format: yuyv)
        try await Task.sleep(for: .seconds(1))
        // Resident memory after a warm-up, then after each of two windows: bounded memory stops growing.
        var memory = [residentBytes()]
        let start = (MonotonicTimestamp.now(), source.statistics.captured)
        for _ in 0..<2 {
            try await Task.sleep(for: .seconds(2.5))
            memory.append(residentBytes())
        }
        let seconds = MonotonicTimestamp.now().duration(since: start.0).inSeconds
        let captured = source.statistics.captured - start.1
        let capture = source.statistics
        await source.stopCapture()
        // Read once no frame is in motion: while frames flow, the counts are read one after another.
        let engine = source.frameSourceEngine.statistics
        let processed = sequences.withLock { $0 }
        let rate = Double(captured) / seconds
        try expect(abs(rate - 25) <= 2.5, "the driver delivered \(rate) fps to the source, not 25")
        try expect(capture.droppedWhileBuffersHeld == 0, "\(capture.droppedWhileBuffersHeld) frames waited on buffers")
        try expect((20...35).contains(processed.count), "the processor saw \(processed.count) frames in 6 s")
        try expect(engine.queued <= 1, "\(engine.queued) frames queued")
        try expect(
            engine.received == engine.delivered + engine.dropped + engine.queued, "counts disagree: \(engine)")
        try expect(engine.dropped * 10 >= engine.received * 6, "only \(engine.dropped) dropped: \(engine)")
        let steps = zip(processed, processed.dropFirst()).map { $1 - $0 }
        try expect(steps.allSatisfy { $0 > 0 }, "sequence numbers did not increase: \(processed)")
        try expect(steps.contains { $0 >= 3 }, "no frames were skipped between processed ones: \(processed)")
        try expect(memory[2] - memory[0] < 8 << 20, "resident memory grew from \(memory[0]) to \(memory[2]) bytes")
        // A frame kept per delivered frame would add about 7 MiB a window (12 frames of 600 KiB), one kept per dropped
        // frame about 30 MiB; allocator and thread-stack growth stays well under 4 MiB.
        try expect(
            memory[2] - memory[1] < 4 << 20, "resident memory still grew from \(memory[1]) to \(memory[2]) bytes")
        return "driver \(String(format3: rate)) fps, processor saw \(processed.count) frames "
            + "(steps \(steps.min() ?? 0)...\(steps.max() ?? 0)); source \(engine); resident memory "
            + memory.map { "\($0 >> 10) KiB" }.joined(separator: " → ")
    }
}

/// The process's resident memory, from `/proc/self/statm`.
func residentBytes() -> Int {
    let descriptor = open("/proc/self/statm", O_RDONLY)
    guard descriptor >= 0 else { return 0 }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 128)
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return 0 }
    let fields = String(decoding: bytes.prefix(count), as: UTF8.self).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
