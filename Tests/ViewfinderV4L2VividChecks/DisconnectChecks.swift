import ViewfinderCore
import ViewfinderSystem
import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

/// The entries of a `/proc/self` directory, such as `fd` for the open descriptors.
func processEntries(_ directory: String) -> Int {
    guard let stream = opendir("/proc/self/\(directory)") else { return -1 }
    defer { closedir(stream) }
    var count = 0
    while let entry = readdir(stream) {
        if withUnsafeBytes(of: entry.pointee.d_name, { $0[0] }) != UInt8(ascii: ".") { count += 1 }
    }
    return count
}

/// The threads whose name starts with `prefix`, such as the V4L2 backend's `v4l2-capture` and `v4l2-controls`.
func processThreads(named prefix: String) -> Int {
    guard let stream = opendir("/proc/self/task") else { return -1 }
    defer { closedir(stream) }
    var count = 0
    while let entry = readdir(stream) {
        let task = withUnsafeBytes(of: entry.pointee.d_name) {
            String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
        }
        guard task.first != ".", let file = fopen("/proc/self/task/\(task)/comm", "r") else { continue }
        defer { fclose(file) }
        var name = [CChar](repeating: 0, count: 32)
        if fgets(&name, Int32(name.count), file) != nil,
            name.withUnsafeBufferPointer({ String(cString: $0.baseAddress!) }).hasPrefix(prefix)
        {
            count += 1
        }
    }
    return count
}

/// vivid disconnected in the middle of capture into a context: the source reports it and goes off, the context
/// stops cleanly, every descriptor and thread of the capture is released (vivid reconnects only once the last
/// descriptor of the device is closed), and the same source and context capture again afterwards.
func runDisconnectDuringCaptureCheck(_ runner: CheckRunner, camera: CaptureDevice) async {
    await runner.run("disconnect-releases-everything") {
        let delegate = DelegateLog()
        let pipeline = await Pipeline(options: .init(recoveryTimeout: .seconds(10)), delegate: delegate)
        let (source, context, frames) = (pipeline.source, pipeline.context, pipeline.log)
        let processed = Locked(0)
        let listener = context.addFrameListener { event in
            if case .didProcess = event { processed.withLock { $0 += 1 } }
        }
        let changes = Locked<[FrameSourceStateChange]>([])
        let stateListener = source.addStateListener { change in changes.withLock { $0.append(change) } }
        defer { withExtendedLifetime((listener, stateListener)) {} }
        let before = (descriptors: processEntries("fd"), threads: processThreads(named: "v4l2-"))

        try await source.startCapture(device: camera)
        try expect(await wait(upTo: .seconds(5)) { frames.count >= 5 }, "only \(frames.count) frames before the fault")
        let during = (descriptors: processEntries("fd"), threads: processThreads(named: "v4l2-"))
        try expect(
            during.descriptors > before.descriptors && during.threads > before.threads,
            "capturing holds no more descriptors or v4l2 threads than before: \(before) → \(during)")
        try setControl(VividControl.disconnect, to: 1, on: camera.path)
        try expect(
            await wait(upTo: .seconds(2)) { delegate.all.count >= 2 && source.currentState == .off },
            "after the disconnect the delegate heard \(delegate.all.map(\.1)) and the source is \(source.currentState)")
        let reported = delegate.all.prefix(2).map(\.1)
        try expect(
            reported.contains { if case .interrupted(.deviceRemoved) = $0 { true } else { false } },
            "no deviceRemoved interruption in \(reported)")
        try expect(
            reported.contains { if case .failed(let error) = $0 { error.code == .deviceRemoved } else { false } },
            "no deviceRemoved failure in \(reported)")
        let last = changes.withLock { $0.last }
        try expect(last?.state == .off && last?.error != nil, "the last state change is \(String(describing: last))")

        // The context finished the frame it had and takes no more; its counts agree with what its processor saw.
        let settled = frames.count
        try await Task.sleep(for: .milliseconds(500))
        try expect(frames.count == settled, "\(frames.count - settled) frames arrived after the source went off")
        try expect(
            processed.withLock { $0 } == settled && context.statistics.framesProcessed == settled,
            "the processor saw \(settled) frames, the listener \(processed.withLock { $0 }), the context counts "
                + "\(context.statistics)")
        let engine = source.frameSourceEngine.statistics
        try expect(engine.queued == 0, "\(engine.queued) frames still queued: \(engine)")

        // vivid reconnects once the last descriptor of the device is closed: the interruption ends only then.
        try expect(
            await wait(upTo: .seconds(5)) {
                delegate.all.contains { if case .interruptionEnded = $0.1 { true } else { false } }
            }, "the interruption did not end: a descriptor of the device is still open")
        try expect(
            await wait(upTo: .seconds(5)) {
                processEntries("fd") <= before.descriptors && processThreads(named: "v4l2-") <= before.threads
            },
            "descriptors \(before.descriptors) → \(processEntries("fd")), v4l2 threads \(before.threads) → "
                + "\(processThreads(named: "v4l2-")) after the disconnect")
        let after = (descriptors: processEntries("fd"), threads: processThreads(named: "v4l2-"))

        // The same source and context capture again.
        let again = frames.count
        try await source.startCapture(device: camera)
        try expect(await wait(upTo: .seconds(5)) { frames.count >= again + 5 }, "no frames after reconnecting")
        await source.stopCapture()
        try expect(
            await wait(upTo: .seconds(5)) { processEntries("fd") <= before.descriptors },
            "descriptors \(before.descriptors) → \(processEntries("fd")) after capturing again")
        return "\(settled) frames, then interrupted and failed with deviceRemoved, off, no frame after; "
            + "descriptors \(before.descriptors) → \(during.descriptors) capturing → \(after.descriptors), v4l2 threads "
            + "\(before.threads) → \(during.threads) → \(after.threads); \(frames.count - again) frames after vivid "
            + "reconnected"
    }
}
