import CV4L2
import ViewfinderBarcode
import ViewfinderCore
import ViewfinderImaging
import ViewfinderSystem
import ViewfinderTestSupport
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
func runBarcodeLoopCheck(_ runner: CheckRunner, picture: String, text: String, tool: String?) async {
    let capturePath = "/dev/video1"
    let outputPath = "/dev/video2"
    await runner.run("barcode-through-vivid-loop") {
        let loop = try VividLoop(capturePath: capturePath, outputPath: outputPath)
        defer { loop.restore() }
        let (output, size, device) = (loop.output, loop.size, loop.device)
        // The output takes the same size and format as the capture node.
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        format.fmt.pix.width = size.width
        format.fmt.pix.height = size.height
        format.fmt.pix.pixelformat = FourCharacterCode("YUYV").rawValue
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try output.control(cv4l2_VIDIOC_S_FMT, "VIDIOC_S_FMT", &format)
        try expect(
            format.fmt.pix.width == size.width && format.fmt.pix.height == size.height
                && format.fmt.pix.pixelformat == FourCharacterCode("YUYV").rawValue,
            "output \(format.fmt.pix.width)x\(format.fmt.pix.height)")

        // The frames to show: the QR picture, centred on white, as YUYV in the output's own row length and size.
        let frame = try loopFrame(
            picture: picture, width: Int(size.width), height: Int(size.height),
            bytesPerRow: Int(format.fmt.pix.bytesperline), byteCount: Int(format.fmt.pix.sizeimage))
        let writer = OutputWriter(device: output, frame: frame)
        try writer.start()
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
        // The tool reads the same loop as users run it: `viewfinder scan DEVICE`, one code, as JSON.
        var scanned: ChildProcess.Result?
        if found, let tool {
            scanned = try ChildProcess.run(
                tool,
                [
                    "scan", capturePath, "--format", "\(size.width)x\(size.height)/yuyv", "--symbologies", "qr",
                    "--count", "1", "--timeout", "60", "--json",
                ], timeout: .seconds(90))
        }
        let (written, lastError) = writer.stop()
        try expect(
            found,
            "no code read in 60 s from \(barcodeCapture.statistics.framesRead) frames (\(written) frames queued on "
                + "\(outputPath)\(lastError.map { ", last error: \($0)" } ?? ""))")
        try expect(read.withLock { $0.first } == text, "read \(read.withLock { $0 })")
        if let scanned {
            try expect(scanned.status == 0, "viewfinder scan \(capturePath) ended with \(scanned)")
            let line = scanned.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
            try expect(
                line.contains("\"symbology\":\"qr\"") && line.contains("\"text\":\"\(text)\""),
                "viewfinder scan printed \(scanned.standardOutput)")
        }
        return "read \"\(text)\" at \(started) after \(barcodeCapture.statistics.framesRead) frames, "
            + "\(written) frames shown on \(outputPath)"
            + (scanned == nil ? "" : "; viewfinder scan \(capturePath) --json read it too")
    }
}

/// The picture in the PNG file centred on white at `width × height`, as YUYV with neutral chroma, in rows of
/// `bytesPerRow` and `byteCount` bytes in all.
private func loopFrame(picture: String, width: Int, height: Int, bytesPerRow: Int, byteCount: Int) throws -> [UInt8] {
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
    try expect(
        bytesPerRow >= width * 2 && byteCount >= bytesPerRow * height, "output rows \(bytesPerRow), \(byteCount)")
    var frame = [UInt8](repeating: 128, count: byteCount)
    for y in 0..<height {
        for x in 0..<width { frame[y * bytesPerRow + 2 * x] = 235 }
    }
    let left = (width - code.width) / 2
    let top = (height - code.height) / 2
    code.withUnsafePlanes { planes in
        for y in 0..<min(code.height, height) where top + y >= 0 {
            let row = planes[0].baseAddress + y * planes[0].bytesPerRow
            for x in 0..<min(code.width, width) where left + x >= 0 {
                frame[(top + y) * bytesPerRow + (left + x) * 2] = row.load(fromByteOffset: x, as: UInt8.self)
            }
        }
    }
    return frame
}

/// Shows one frame on a video output node over and over, as a player would, through the node's own memory-mapped
/// buffers (`VIDIOC_REQBUFS`, `VIDIOC_QBUF`, `VIDIOC_DQBUF`), until stopped.
private final class OutputWriter: Sendable {
    private struct State {
        var stopped = false
        var done = false
        var framesQueued = 0
        var lastError: String?
    }

    private let device: V4L2Device
    private let frame: [UInt8]
    private let state = Locked(State())
    private static let outputType = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue

    init(device: V4L2Device, frame: [UInt8]) {
        self.device = device
        self.frame = frame
    }

    /// Maps the node's buffers, fills each with the frame, and starts a thread that queues them again as the node
    /// hands them back.
    func start() throws {
        var request = v4l2_requestbuffers()
        request.count = 3
        request.type = Self.outputType
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.control(cv4l2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
        for index in 0..<request.count {
            var buffer = makeBuffer(index)
            try device.control(cv4l2_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", &buffer)
            let length = Int(buffer.length)
            try expect(length >= frame.count, "an output buffer of \(length) bytes for a frame of \(frame.count)")
            switch device.system.mmap(device.descriptor, length: length, offset: Int64(buffer.m.offset)) {
            case .success(let address):
                frame.withUnsafeBytes { address.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                device.system.munmap(address, length: length)
            case .failure(let code):
                throw V4L2Error(operation: "mmap", path: device.path, code: code)
            }
            try queue(index)
        }
        var type = CInt(Self.outputType)
        try device.control(cv4l2_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type)
        try PlatformThread.detach(name: "vivid-output") { [self] in
            while !state.withLock({ $0.stopped }) {
                var buffer = makeBuffer(0)
                do throws(V4L2Error) {
                    try device.control(cv4l2_VIDIOC_DQBUF, "VIDIOC_DQBUF", &buffer)
                    try queue(buffer.index)
                } catch {
                    if error.code.rawValue != EAGAIN { state.withLock { $0.lastError = "\(error)" } }
                    usleep(5000)  // the node has not shown a buffer yet (it is non-blocking)
                }
            }
            var type = CInt(Self.outputType)
            _ = try? device.control(cv4l2_VIDIOC_STREAMOFF, "VIDIOC_STREAMOFF", &type)
            state.withLock { $0.done = true }
        }
    }

    private func makeBuffer(_ index: UInt32) -> v4l2_buffer {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = Self.outputType
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        return buffer
    }

    private func queue(_ index: UInt32) throws(V4L2Error) {
        var buffer = makeBuffer(index)
        buffer.bytesused = UInt32(frame.count)
        buffer.field = V4L2_FIELD_NONE.rawValue
        try device.control(cv4l2_VIDIOC_QBUF, "VIDIOC_QBUF", &buffer)
        state.withLock { $0.framesQueued += 1 }
    }

    /// Stops showing frames and returns how many were queued and the last error the thread met.
    @discardableResult
    func stop() -> (frames: Int, lastError: String?) {
        state.withLock { $0.stopped = true }
        for _ in 0..<400 where !state.withLock({ $0.done }) { usleep(5000) }
        return state.withLock { ($0.framesQueued, $0.lastError) }
    }
}
