import Testing
import ViewfinderCore
import ViewfinderImaging
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderV4L2

/// MJPEG webcams through ``CameraSource/Options/convertsToNV12FullRange``: real JPEG frames from the encoder, in
/// the driver's buffers, decoded into the source's pool.
@Suite struct MJPEGConversionTests {
    /// A webcam in the common shape: YUYV up to 640x480, MJPEG up to 1280x720, both at 30 fps.
    static func webcam() -> FakeV4L2System {
        var node = FakeV4L2System.Node()
        node.formats = [
            (.v4l2YUYV, .discrete([.init(width: 320, height: 240), .init(width: 640, height: 480)]), [.fps(30)]),
            (.v4l2MJPEG, .discrete([.init(width: 640, height: 480), .init(width: 1280, height: 720)]), [.fps(30)]),
        ]
        return FakeV4L2System(directory: "/fake-mjpeg", nodes: ["video0": node])
    }

    let camera = CaptureDevice(
        path: "/fake-mjpeg/video0", name: "Fake Camera", bus: "usb", driver: "fakecam", capabilities: 0)

    /// A JPEG frame: red on the left half, blue on the right.
    static func jpegFrame(width: Int, height: Int) throws -> [UInt8] {
        let image = try PixelBuffer(width: width, height: height, format: .rgb24) { planes in
            let bytes = planes[0].bytes
            for y in 0..<height {
                for x in 0..<width {
                    let offset = y * planes[0].bytesPerRow + x * 3
                    (bytes[offset], bytes[offset + 1], bytes[offset + 2]) = x < width / 2 ? (255, 0, 0) : (0, 0, 255)
                }
            }
        }
        return try JPEGEncoder().encode(image, quality: 90)
    }

    /// The colour of a pixel of an NV12 full-range buffer, as BGRA bytes read back by the converter.
    static func colour(of buffer: PixelBuffer, x: Int, y: Int) throws -> (red: Int, green: Int, blue: Int) {
        let bgra = try PixelConverter().convert(buffer, to: .bgra)
        return bgra.withUnsafePlanes { planes in
            let offset = y * planes[0].bytesPerRow + x * 4
            let bytes = planes[0].bytes
            return (Int(bytes[offset + 2]), Int(bytes[offset + 1]), Int(bytes[offset]))
        }
    }

    @Test func mjpegFramesArriveAsNV12FromThePoolAndACorruptOneIsDroppedAndCounted() async throws {
        let system = Self.webcam()
        let source = CameraSource(
            options: .init(bufferCount: 4, convertsToNV12FullRange: true), delegate: nil, system: system,
            directory: "/fake-mjpeg")
        let sink = FrameSink(keeps: true)
        let context = await makeContext(for: source) { sink.receive($0) }
        let wanted = VideoFormat(dimensions: .init(width: 1280, height: 720), frameRate: 30, pixelFormat: .jpeg)
        #expect(try await source.startCapture(device: camera, format: wanted) == wanted)

        let good = try Self.jpegFrame(width: 1280, height: 720)
        var corrupt = good
        corrupt.replaceSubrange(2..<200, with: repeatElement(0x00, count: 198))  // the header's tables are gone
        let garbage: [UInt8] = Array(repeating: 0x5A, count: 4000)
        #expect(system.produce([good], at: "video0") == 1)
        try await waitUntil("the first frame") { sink.received.count == 1 }
        #expect(system.produce([corrupt, garbage], at: "video0") == 2)
        try await waitUntil("both bad frames counted") { source.statistics.undecodable == 2 }
        #expect(system.produce([good], at: "video0") == 1)
        try await waitUntil("the frame after them") { sink.received.count == 2 }

        #expect(sink.received == [0, 3])  // sequence numbers: the two between did not decode
        let frames = sink.kept
        for frame in frames {
            #expect(frame.pixelBuffer.format == .nv12FullRange)
            #expect((frame.pixelBuffer.width, frame.pixelBuffer.height) == (1280, 720))
            let left = try Self.colour(of: frame.pixelBuffer, x: 320, y: 360)
            let right = try Self.colour(of: frame.pixelBuffer, x: 960, y: 360)
            #expect(left.red > 230 && left.green < 25 && left.blue < 25, "left is \(left)")
            #expect(right.red < 25 && right.green < 25 && right.blue > 230, "right is \(right)")
        }
        let statistics = source.statistics
        #expect(statistics.captured == 4)
        #expect(statistics.undecodable == 2)
        #expect(statistics.droppedByConversion == 0)
        // Every driver buffer went back: the decoded frames do not hold them.
        try await waitUntil { system.queuedCount(at: "video0") == 4 }
        await source.stopCapture()
        withExtendedLifetime(context) {}
    }

    @Test func decodedFramesReuseTheSourcesPoolBuffers() async throws {
        let system = Self.webcam()
        let source = CameraSource(
            options: .init(bufferCount: 3, convertsToNV12FullRange: true), delegate: nil, system: system,
            directory: "/fake-mjpeg")
        let addresses = Recorder<Int>()
        let context = await makeContext(for: source) { frame in
            frame.pixelBuffer.withUnsafeBytes(ofPlane: 0) { addresses.append(Int(bitPattern: $0.baseAddress)) }
        }
        let wanted = VideoFormat(dimensions: .init(width: 640, height: 480), frameRate: 30, pixelFormat: .jpeg)
        try await source.startCapture(device: camera, format: wanted)
        let frame = try Self.jpegFrame(width: 640, height: 480)
        for count in 1...12 {
            system.produce([frame], at: "video0")
            try await waitUntil("frame \(count)") { addresses.all.count == count }
        }
        // Twelve frames, at most three distinct pieces of memory: nothing is allocated per frame.
        #expect(Set(addresses.all).count <= 3)
        await source.stopCapture()
        withExtendedLifetime(context) {}
    }

    @Test func theAutomaticChoiceTakesRawOverMJPEGOnlyAtTheSameSizeAndRate() throws {
        let formats = try CameraSource.supportedFormats(of: V4L2Device(path: camera.path, system: Self.webcam()))
        #expect(formats.contains { $0.pixelFormat == .jpeg })
        let chosen = try CameraSource.preferredFormat(among: formats)
        #expect(chosen == VideoFormat(dimensions: .init(width: 640, height: 480), frameRate: 30, pixelFormat: .yuyv))

        // Without a raw format at 640x480, MJPEG's 640x480 beats YUYV's smaller size.
        let smallRaw = formats.filter { $0.pixelFormat == .jpeg || $0.dimensions.width == 320 }
        let fromSmall = try CameraSource.preferredFormat(among: smallRaw)
        #expect(fromSmall == VideoFormat(dimensions: .init(width: 640, height: 480), frameRate: 30, pixelFormat: .jpeg))
    }

    @Test func startingWithoutAFormatWhileConvertingCanPickMJPEG() async throws {
        var node = FakeV4L2System.Node()
        node.formats = [(.v4l2MJPEG, .discrete([.init(width: 640, height: 480)]), [.fps(30)])]
        let system = FakeV4L2System(directory: "/fake-mjpeg-only", nodes: ["video0": node])
        let source = CameraSource(
            options: .init(convertsToNV12FullRange: true), delegate: nil, system: system,
            directory: "/fake-mjpeg-only")
        let device = CaptureDevice(
            path: "/fake-mjpeg-only/video0", name: "Fake Camera", bus: "usb", driver: "fakecam", capabilities: 0)
        let format = try await source.startCapture(device: device)
        #expect(format.pixelFormat == .jpeg)
        await source.stopCapture()
    }
}
