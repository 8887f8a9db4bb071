import ViewfinderCore
import ViewfinderSystem
import ViewfinderV4L2

/// Checks of controls as typed properties: set and observe brightness, vivid's automatic gain cluster, and
/// changes made through another descriptor.
func runControlChecks(_ runner: CheckRunner, camera: CaptureDevice) async {
    await runner.run("brightness-property") {
        let controls = try CaptureDeviceControls(device: camera)
        defer { controls.close() }
        let brightness = controls.property(for: .brightness)
        try expect(brightness.valueSetType == .numericRange, "brightness values are \(brightness.valueSetType)")
        try expect(brightness.validSettableValues.count == 256, "\(brightness.validSettableValues.count) values")
        let seen = Locked<[String]>([])
        let token = brightness.addObserver { property, change in
            if change.contains(.value) { seen.withLock { $0.append(property.currentValue?.description ?? "-") } }
        }
        defer { withExtendedLifetime(token) {} }
        let yuyv = VideoFormat(dimensions: .init(width: 640, height: 480), frameRate: 25, pixelFormat: .yuyv)
        var means: [Double] = []
        for value: Int64 in [40, 220] {
            try await brightness.setValue(.integer(value))
            let shown = brightness.commonValue
            try expect(shown == .integer(value), "brightness shows \(String(describing: shown)), not \(value)")
            let read = Int64(try CameraSource.value(ofControl: V4L2ControlID.brightness, on: camera))
            try expect(read == value, "another descriptor reads brightness \(read), not \(value)")
            let run = try await capture(from: camera, format: yuyv, for: .milliseconds(700))
            let entries = run.log.all.dropFirst(2)
            try expect(!entries.isEmpty, "no frames at brightness \(value)")
            means.append(entries.map(\.meanLuma).reduce(0, +) / Double(entries.count))
        }
        let up = try await brightness.increment()
        let down = try await brightness.decrement()
        try expect(up.commonValue == .integer(221) && down.commonValue == .integer(220), "stepped to \(up), \(down)")
        try await brightness.setValue(.integer(128))
        try expect(means[1] > means[0] + 20, "mean luma \(means[0]) at brightness 40, \(means[1]) at 220")
        let values = seen.withLock { $0 }
        try expect(Array(values.prefix(4)) == ["40 [40]", "220 [220]", "221 [221]", "220 [220]"], "observed \(values)")
        return "mean luma \(String(format3: means[0])) at brightness 40, \(String(format3: means[1])) at 220; "
            + "observers saw \(values.map { $0.split(separator: " ")[0] })"
    }

    await runner.run("automatic-gain") {
        let controls = try CaptureDeviceControls(device: camera)
        defer { controls.close() }
        let automatic = controls.property(for: .automaticGain)
        let gain = controls.property(for: .gain)
        try expect(
            automatic.commonValue == .boolean(true), "automatic gain is \(String(describing: automatic.commonValue))")
        let info = try require(controls.controls.first { $0.id == V4L2ControlID.gain }, "no gain control")
        try expect(info.isInactive, "gain is not inactive while automatic gain is on (flags \(info.flags))")
        try expect(gain.validSettableValues.isEmpty, "gain offers \(gain.validSettableValues.count) values")
        // vivid's automatic gain changes every second without an event; an observed property follows it.
        let values = Locked<Set<String>>([])
        let token = gain.addObserver { property, _ in
            values.withLock { _ = $0.insert(property.currentValue?.localizedDisplayValue ?? "-") }
        }
        defer { withExtendedLifetime(token) {} }
        let followed = await wait(upTo: .seconds(4)) { values.withLock { $0.count } >= 2 }
        try expect(followed, "the observed gain showed only \(values.withLock { $0 }) in 4 s")
        try await automatic.setValue(.boolean(false))
        let settable = await wait(upTo: .seconds(1)) { gain.validSettableValues.count == 256 }
        try expect(settable, "gain offers \(gain.validSettableValues.count) values with automatic gain off")
        try await gain.setValue(.integer(77))
        try expect(gain.commonValue == .integer(77), "gain shows \(String(describing: gain.commonValue))")
        try await automatic.setValue(.boolean(true))
        let locked = await wait(upTo: .seconds(1)) { gain.validSettableValues.isEmpty }
        try expect(locked, "gain still offers values with automatic gain back on")
        return "gain read-only while automatic (followed \(values.withLock { $0.count }) values), settable "
            + "0...255 while manual, set to 77, read-only again"
    }

    await runner.run("control-events") {
        let controls = try CaptureDeviceControls(device: camera)
        defer { controls.close() }
        let contrast = controls.property(for: .contrast)
        let original = try CameraSource.value(ofControl: V4L2ControlID.contrast, on: camera)
        let changed = Locked<Bool>(false)
        let token = contrast.addObserver { property, change in
            if change.contains(.value), property.commonValue == .integer(33) { changed.withLock { $0 = true } }
        }
        defer { withExtendedLifetime(token) {} }
        let start = MonotonicTimestamp.now()
        try setControl(V4L2ControlID.contrast, to: 33, on: camera.path)
        try expect(await wait(upTo: .seconds(1)) { changed.withLock { $0 } }, "no change seen within 1 s")
        let latency = MonotonicTimestamp.now().duration(since: start)
        try setControl(V4L2ControlID.contrast, to: original, on: camera.path)
        return "a change through another descriptor reached the observer in \(latency)"
    }
}
