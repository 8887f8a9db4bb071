import Foundation
import ViewfinderCore
import ViewfinderImaging
import ViewfinderSystem
import ViewfinderTestSupport
import ViewfinderV4L2

/// Checks `viewfinder webcam` through a real V4L2 output, read back through vivid's loop.
///
/// The tool writes the simulated camera's live view to vivid's output node at 30 frames a second, vivid loops it to
/// its capture node, and a `CameraSource` context reads the camera's picture back there: its colour bars where the
/// tool placed them, framed in black. The tool's own figures say it wrote no faster than the asked rate.
func runWebcamLoopCheck(_ runner: CheckRunner, tool: String) async {
    await runner.run("webcam-through-vivid-loop") {
        let loop = try VividLoop(capturePath: "/dev/video1", outputPath: "/dev/video2")
        defer { loop.restore() }
        let size = Dimensions(width: Int(loop.size.width), height: Int(loop.size.height))
        // Scaling while packing, pinned: the emulated machine would time the JPEG transform as the cheaper way.
        return try await checkWebcam(
            tool: tool, output: "/dev/video2", size: size, readingBack: loop.device, decoding: "packing")
    }
}

/// Checks `viewfinder webcam` on a v4l2loopback device, the device it writes to in real use: other programs read
/// the frames from the same node, as a `CameraSource` context does here.
func runWebcamLoopbackCheck(_ runner: CheckRunner, tool: String, device path: String) async {
    await runner.run("webcam-through-v4l2loopback") {
        let device = CaptureDevice(path: path, name: "", bus: "", driver: "", capabilities: 0)
        return try await checkWebcam(
            tool: tool, output: path, size: Dimensions(width: 1280, height: 720), readingBack: device)
    }
}

/// Checks `viewfinder webcam` with a camera that speaks HTTP rather than PTP, as with a PTP camera: a simulated Sony
/// Camera Remote API body on loopback (`viewfinder simulate --identity sony-remote-api`), whose live view stream the
/// tool writes to the v4l2loopback device at `path`, read back there.
func runWebcamHTTPCameraCheck(_ runner: CheckRunner, tool: String, device path: String) async {
    await runner.run("webcam-of-a-camera-remote-api-body") {
        let simulator = try ChildProcess(tool, ["simulate", "--identity", "sony-remote-api", "--port", "0"])
        defer {
            simulator.interrupt()
            _ = simulator.wait(timeout: .seconds(30))
        }
        let prefix = "description at http://127.0.0.1:"
        _ = await offThePool { simulator.waitForOutput(timeout: .seconds(60)) { $0.contains(prefix) } }
        let line = simulator.standardOutput.split(separator: "\n").first { $0.hasPrefix(prefix) }
        let port = try require(
            line.flatMap { UInt16($0.dropFirst(prefix.count).prefix { $0.isNumber }) },
            "the simulator did not say where it listens: \(simulator.standardOutput) \(simulator.standardError)")
        let device = CaptureDevice(path: path, name: "", bus: "", driver: "", capabilities: 0)
        return try await checkWebcam(
            tool: tool, output: path, size: Dimensions(width: 1280, height: 720), readingBack: device,
            camera: ["--family", "sony-remote", "--host", "127.0.0.1:\(port)"],
            liveViewSize: Dimensions(width: 320, height: 240))
    }
}

/// Runs `viewfinder webcam` to `output` at `size` and 30 frames a second, decoding JPEG `decoding` (`auto`,
/// `transform` or `packing`), reads its frames back from `device`, and checks they show the simulated camera's
/// picture and the tool wrote no faster than the asked rate; `camera` are the options that name the camera (the
/// tool's built-in simulated camera without), whose live view is `liveViewSize`.
private func checkWebcam(
    tool: String, output: String, size: Dimensions, readingBack device: CaptureDevice, decoding: String = "auto",
    camera: [String] = [], liveViewSize: Dimensions = WebcamPicture.simulatedLiveViewSize
) async throws -> String {
    let rate = 30
    let webcam = try ChildProcess(
        tool,
        [
            "webcam", output, "--format", "\(size.width)x\(size.height)@\(rate)", "--duration", "15",
            "--jpeg-decoding", decoding, "--json",
        ] + camera)
    let source = CameraSource()
    let context = DataCaptureContext()
    let seen = Locked<(frames: Int, matching: Int, last: String)>((0, 0, "no frame"))
    let converter = PixelConverter()
    let processor = context.addProcessor { frame in
        let rgb = try converter.convert(frame.pixelBuffer, to: .bgra)
        let verdict = WebcamPicture.check(rgb, liveViewSize: liveViewSize)
        seen.withLock { seen in
            seen.frames += 1
            if verdict == nil { seen.matching += 1 } else { seen.last = verdict! }
        }
    }
    defer { withExtendedLifetime(processor) {} }
    await context.setFrameSource(source)
    // A loopback device offers the writer's format once the writer has set it.
    var formats: [VideoFormat] = []
    _ = await wait(upTo: .seconds(30)) {
        formats = CameraSource.supportedFormats(for: device)
        return formats.contains { $0.pixelFormat == .yuyv && $0.dimensions == size }
    }
    let format = try require(
        formats.first { $0.pixelFormat == .yuyv && $0.dimensions == size }, "no YUYV format of \(size): \(formats)")
    _ = try await source.startCapture(device: device, format: format)
    let found = await wait(upTo: .seconds(60)) { seen.withLock { $0.matching >= 10 } }
    await source.stopCapture()
    await context.setFrameSource(nil)
    let status = webcam.wait(timeout: .seconds(60))
    let cpuSeconds = webcam.result?.cpuSeconds ?? 0
    let (frames, matching, last) = seen.withLock { $0 }
    try expect(
        found, "\(matching) of \(frames) frames read back showed the camera's picture; the last: \(last)")
    try expect(status == 0, "viewfinder webcam ended with \(String(describing: status)): \(webcam.standardError)")
    let line = webcam.standardOutput
    let summary = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    let written = try require(summary?["writtenPerSecond"] as? Double, "no summary in \(webcam.standardOutput)")
    let fromCamera = summary?["framesFromSource"] as? Int ?? 0
    let total = summary?["framesWritten"] as? Int ?? 0
    // The output keeps its own rate, repeating the last frame when none is new: never faster than it. How far behind
    // it falls depends on the CPU share qemu's emulation gets on the host (13.9 frames a second beside four builds),
    // so the rate is reported here and measured by make bench-webcam, not bounded below.
    try expect(written <= Double(rate) * 1.1 && written > 0, "wrote \(written) frames a second, asked \(rate)")
    try expect(fromCamera > 0, "no frame came from the camera: \(line)")
    // The output measured both ways of decoding the camera's JPEG frames on the first ones and kept one.
    let kept = try require(summary?["jpegDecoding"] as? String, "no way of decoding was chosen: \(line)")
    try expect(decoding != "packing" || kept == "whilePacking", "decoded JPEG \(kept), not while packing")
    return "\(matching) of \(frames) frames read back show the simulated camera's bars in black bars; the tool "
        + "decoded JPEG \(kept) and wrote \(String(format: "%.1f", written)) frames/s (\(fromCamera) from the camera), "
        + "\(Int(cpuSeconds * 1e6 / Double(max(total, 1)))) µs CPU per output frame (emulated)"
}

/// What the simulated camera's picture looks like on the output: its scene centred, with black around it, and the
/// seven colour bars across the top of the scene; either at the largest size of its shape that fits, or at the
/// largest JPEG scale that fits, as the output shows JPEG images whichever way costs it less.
enum WebcamPicture {
    /// The bars of the scene's top part, left to right, as RGB.
    static let bars: [(name: String, rgb: (Int, Int, Int))] = [
        ("white", (230, 230, 230)), ("yellow", (230, 230, 0)), ("cyan", (0, 230, 230)), ("green", (0, 230, 0)),
        ("magenta", (230, 0, 230)), ("red", (230, 0, 0)), ("blue", (0, 0, 230)),
    ]
    /// How far a colour may be from the ideal in each channel after JPEG, scaling, YUYV and the loop.
    static let tolerance = 64

    /// The size of the built-in simulated camera's live view.
    static let simulatedLiveViewSize = Dimensions(width: 640, height: 424)

    /// `nil` when `image` (BGRA) shows the picture, a live view of `live`, at either size, else what differs.
    static func check(_ image: PixelBuffer, liveViewSize live: Dimensions = simulatedLiveViewSize) -> String? {
        let bounds = Dimensions(width: image.width, height: image.height)
        let fill = min(Double(image.width) / Double(live.width), Double(image.height) / Double(live.height))
        let fitted = Dimensions(
            width: min(image.width, Int(Double(live.width) * fill / 2) * 2),
            height: min(image.height, Int(Double(live.height) * fill / 2) * 2))
        let scale = JPEGDecoder.Scale.largest(for: live, fittingIn: bounds)
        let decoded = Dimensions(width: scale.apply(to: live.width), height: scale.apply(to: live.height))
        let verdicts = [fitted, decoded].map { check(image, pictureSize: $0) }
        return verdicts.contains { $0 == nil } ? nil : verdicts.compactMap { $0 }.joined(separator: "; or ")
    }

    /// `nil` when `image` shows the picture at `pictureSize`, centred, else what differs.
    private static func check(_ image: PixelBuffer, pictureSize: Dimensions) -> String? {
        let (width, height) = (pictureSize.width, pictureSize.height)
        let left = (image.width - width) / 4 * 2
        let top = (image.height - height) / 4 * 2
        return image.withUnsafePlanes { planes in
            let plane = planes[0]
            func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
                let offset = y * plane.bytesPerRow + x * 4
                let bytes = plane.bytes
                return (Int(bytes[offset + 2]), Int(bytes[offset + 1]), Int(bytes[offset]))
            }
            func near(_ a: (Int, Int, Int), _ b: (Int, Int, Int)) -> Bool {
                abs(a.0 - b.0) <= tolerance && abs(a.1 - b.1) <= tolerance && abs(a.2 - b.2) <= tolerance
            }
            let y = top + height * 8 / 100
            for (index, bar) in bars.enumerated() {
                let x = left + width * (2 * index + 1) / (2 * bars.count)
                let seen = pixel(x, y)
                if !near(seen, bar.rgb) { return "the \(bar.name) bar at (\(x), \(y)) is \(seen)" }
            }
            if left >= 8 {
                let seen = pixel(left / 2, image.height / 2)
                if !near(seen, (0, 0, 0)) { return "the black frame at (\(left / 2), \(image.height / 2)) is \(seen)" }
            }
            return nil
        }
    }
}
