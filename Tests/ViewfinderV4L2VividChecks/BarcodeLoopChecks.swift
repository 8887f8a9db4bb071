import CV4L2
import ViewfinderBarcode
import ViewfinderCore
import ViewfinderImaging
import ViewfinderSystem
import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

/// Barcode capture through a real V4L2 path: frames with a QR code are written to vivid's video output node, which
/// vivid loops back to its capture node (HDMI output to HDMI input, the same format on both, the capture device's
/// Loop Video control on), and a `CameraSource` feeding a context with barcode capture reads the code.
///
/// - Parameters:
///   - picture: A PNG file with a QR code that says `text`.
func runBarcodeLoopCheck(_ runner: CheckRunner, picture: String, text: String) async {
    let capturePath = "/dev/video1"
    let outputPath = "/dev/video2"
    await runner.run("barcode-through-vivid-loop") {
        let capture = try V4L2Device(path: capturePath)
        let output = try V4L2Device(path: outputPath)
        var input = try index(of: "HDMI", in: capture, request: cv4l2_VIDIOC_ENUMINPUT)
        try capture.control(cv4l2_VIDIOC_S_INPUT, "VIDIOC_S_INPUT", &input)
        var outputIndex = try index(of: "HDMI", in: output, request: cv4l2_VIDIOC_ENUMOUTPUT)
        try output.control(cv4l2_VIDIOC_S_OUTPUT, "VIDIOC_S_OUTPUT", &outputIndex)
        defer {
            // The later phases capture from the webcam input again.
            var webcam: CInt = 0
            _ = try? capture.control(cv4l2_VIDIOC_S_INPUT, "VIDIOC_S_INPUT", &webcam)
        }

        // The HDMI input's size comes from its timings; the output takes the same size and format.
        let size = try capture.format().size
        let captureFormat = try capture.setFormat("YUYV", size: size)
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        format.fmt.pix.width = size.width
        format.fmt.pix.height = size.height
        format.fmt.pix.pixelformat = FourCharacterCode("YUYV").rawValue
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try output.control(cv4l2_VIDIOC_S_FMT, "VIDIOC_S_FMT", &format)
        try expect(
            format.fmt.pix.width == size.width && format.fmt.pix.height == size.height
                && captureFormat.pixelFormat == "YUYV"
                && format.fmt.pix.pixelformat == captureFormat.pixelFormat.rawValue,
            "output \(format.fmt.pix.width)x\(format.fmt.pix.height), capture \(captureFormat)")

        let device = CaptureDevice(path: capturePath, name: "", bus: "", driver: "", capabilities: 0)
        let controls = try CameraSource.controls(for: device)
        let loop = try require(controls.first { $0.name == "Loop Video" }, "no Loop Video control")
        try CameraSource.setValue(1, ofControl: loop.id, on: device)
        defer { _ = try? CameraSource.setValue(0, ofControl: loop.id, on: device) }
        if let osd = controls.first(where: { $0.name == "OSD Text Mode" }),
            let none = osd.menu.first(where: { $0.name == "None" })
        {
            try CameraSource.setValue(Int32(none.index), ofControl: osd.id, on: device)
        }

        // The frames to show: the QR picture, centred on white, as YUYV.
        let frame = try loopFrame(picture: picture, width: Int(size.width), height: Int(size.height))
        let writer = OutputWriter(device: output, frame: frame)
        writer.start()
        defer { writer.stop() }

        let source = CameraSource()
        let context = DataCaptureContext()
        let barcodeCapture = BarcodeCapture(
            context: context, settings: BarcodeCaptureSettings(enabledSymbologies: [.qr]))
        let read = Locked<[String]>([])
        let token = barcodeCapture.addListener { session in
            read.withLock { $0 += session.newlyRecognizedBarcodes.compactMap(\.text) }
        }
        defer { withExtendedLifetime(token) {} }
        await context.setFrameSource(source)
        let formats = CameraSource.supportedFormats(for: device).filter {
            $0.pixelFormat == .yuyv && $0.dimensions == Dimensions(width: Int(size.width), height: Int(size.height))
        }
        let started = try await source.startCapture(
            device: device, format: try require(formats.first, "no YUYV format"))
        let found = await wait(upTo: .seconds(60)) { !read.withLock { $0 }.isEmpty }
        await source.stopCapture()
        let written = writer.stop()
        try expect(
            found, "no code read in 60 s from \(barcodeCapture.statistics.framesRead) frames (\(written) written)")
        try expect(read.withLock { $0.first } == text, "read \(read.withLock { $0 })")
        return "read \"\(text)\" at \(started) after \(barcodeCapture.statistics.framesRead) frames, \(written) written"
    }
}

/// The index of the first input or output whose name starts with `prefix` (`VIDIOC_ENUMINPUT`/`VIDIOC_ENUMOUTPUT`).
private func index(of prefix: String, in device: V4L2Device, request: UInt) throws -> CInt {
    for index in 0..<16 {
        // v4l2_input and v4l2_output both start with the index, then the name.
        var entry = v4l2_input()
        entry.index = UInt32(index)
        do {
            try device.control(request, "enumerate inputs or outputs", &entry)
        } catch {
            break
        }
        if V4L2Capability.string(entry.name).hasPrefix(prefix) { return CInt(index) }
    }
    throw CheckFailure(description: "\(device.path) has no \(prefix) input or output")
}

/// The picture in the PNG file centred on white at `width × height`, as YUYV with neutral chroma.
private func loopFrame(picture: String, width: Int, height: Int) throws -> [UInt8] {
    guard let file = fopen(picture, "rb") else { throw CheckFailure(description: "cannot open \(picture)") }
    defer { fclose(file) }
    var png: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        png += chunk[..<count]
    }
    let code = try PNGDecoder().decode(png, to: .gray8)
    var frame = [UInt8](repeating: 128, count: width * height * 2)
    for index in stride(from: 0, to: frame.count, by: 2) { frame[index] = 235 }
    let left = (width - code.width) / 2
    let top = (height - code.height) / 2
    code.withUnsafePlanes { planes in
        for y in 0..<min(code.height, height) where top + y >= 0 {
            let row = planes[0].baseAddress + y * planes[0].bytesPerRow
            for x in 0..<min(code.width, width) where left + x >= 0 {
                frame[((top + y) * width + left + x) * 2] = row.load(fromByteOffset: x, as: UInt8.self)
            }
        }
    }
    return frame
}

/// Writes one frame to a video output node over and over, as a player would, until stopped.
private final class OutputWriter: Sendable {
    private let device: V4L2Device
    private let frame: [UInt8]
    private let state = Locked((stopped: false, written: 0, done: false))

    init(device: V4L2Device, frame: [UInt8]) {
        self.device = device
        self.frame = frame
    }

    func start() {
        try? PlatformThread.detach(name: "vivid-output") { [self] in
            while !state.withLock({ $0.stopped }) {
                let result = frame.withUnsafeBytes { write(device.descriptor, $0.baseAddress, $0.count) }
                if result == frame.count {
                    state.withLock { $0.written += 1 }
                } else {
                    usleep(5000)  // no free output buffer yet (the node is non-blocking)
                }
            }
            state.withLock { $0.done = true }
        }
    }

    /// Stops writing and returns how many frames were written.
    @discardableResult
    func stop() -> Int {
        state.withLock { $0.stopped = true }
        for _ in 0..<400 where !state.withLock({ $0.done }) { usleep(5000) }
        return state.withLock { $0.written }
    }
}
