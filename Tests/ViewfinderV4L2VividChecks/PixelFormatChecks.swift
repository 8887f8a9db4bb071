import ViewfinderCore
import ViewfinderImaging
import ViewfinderV4L2

/// Where a four-byte order keeps red and blue, by memory offset, written out from the kernel header's comments.
private let redAndBlueOffsets: [(PixelFormat, red: Int, blue: Int)] = [
    (.bgra, 2, 0), (.rgba, 0, 2), (.argb, 1, 3), (.abgr, 3, 1), (.bgrx, 2, 0), (.rgbx, 0, 2), (.xrgb, 1, 3),
    (.xbgr, 3, 1),
]

/// Captures frames in `format` until one arrives after the first, and returns it.
func captureOneFrame(from camera: CaptureDevice, format: VideoFormat, convertingToNV12: Bool) async throws -> Frame {
    let log = FrameLog(holdsFrames: true)
    let pipeline = await Pipeline(options: .init(convertsToNV12FullRange: convertingToNV12), log: log)
    try await pipeline.source.startCapture(device: camera, format: format)
    let arrived = await wait(upTo: .seconds(5)) { log.count >= 2 }
    let frame = log.heldFrames.last
    log.releaseHeld()
    await pipeline.source.stopCapture()
    try expect(arrived, "fewer than two \(format) frames in 5 s")
    return try require(frame, "no frame")
}

/// The colour at a point of a BGRA buffer, as (red, green, blue).
func colour(of buffer: PixelBuffer, x: Int, y: Int) -> (Int, Int, Int) {
    buffer.withUnsafePlanes { planes in
        let offset = y * planes[0].bytesPerRow + x * 4
        return (Int(planes[0].bytes[offset + 2]), Int(planes[0].bytes[offset + 1]), Int(planes[0].bytes[offset]))
    }
}

/// Checks that the red and the blue bar of vivid's 100% colour bars (the sixth and seventh of eight) are red and
/// blue in a BGRA image.
func expectRedAndBlueBars(_ buffer: PixelBuffer, _ context: String) throws {
    let (red, blue) = (
        colour(of: buffer, x: buffer.width * 11 / 16, y: buffer.height / 2),
        colour(of: buffer, x: buffer.width * 13 / 16, y: buffer.height / 2)
    )
    try expect(red.0 > 200 && red.1 < 40 && red.2 < 40, "\(context): the red bar is \(red)")
    try expect(blue.0 < 40 && blue.1 < 40 && blue.2 > 200, "\(context): the blue bar is \(blue)")
}

/// Sets vivid's test pattern to a menu entry by name; returns the control and the value it had.
func selectTestPattern(_ name: String, on camera: CaptureDevice) throws -> (id: UInt32, previous: Int32) {
    let controls = try CameraSource.controls(for: camera)
    let pattern = try require(controls.first { $0.name == "Test Pattern" }, "no Test Pattern control")
    let entry = try require(pattern.menu.first { $0.name == name }, "no \(name) entry")
    let previous = try CameraSource.value(ofControl: pattern.id, on: camera)
    try CameraSource.setValue(Int32(entry.index), ofControl: pattern.id, on: camera)
    return (pattern.id, previous)
}

func runPixelFormatChecks(_ runner: CheckRunner, camera: CaptureDevice) async {
    // Every four-byte RGB order vivid offers, read three ways: its bytes by hand, converted to BGRA, and through
    // the source's own conversion to NV12. A wrong name for an order shows red as blue or as another colour.
    await runner.run("four-byte-rgb-orders") {
        let pattern = try selectTestPattern("100% Colorbar", on: camera)
        defer { try? setControl(pattern.id, to: pattern.previous, on: camera.path) }
        let listed = Set(try V4L2Device(path: camera.path).formats().map(\.pixelFormat))
        let offered = redAndBlueOffsets.filter { listed.contains($0.0.fourCC) }
        try expect(offered.count >= 4, "vivid offers only \(offered.map(\.0)) of the four-byte orders")
        let converter = PixelConverter()
        for (pixelFormat, redOffset, blueOffset) in offered {
            let format = VideoFormat(
                dimensions: Dimensions(width: 640, height: 360), frameRate: 30, pixelFormat: pixelFormat)
            let raw = try await captureOneFrame(from: camera, format: format, convertingToNV12: false)
            try expect(raw.pixelBuffer.format == pixelFormat, "captured \(raw.pixelBuffer.format), not \(pixelFormat)")
            let bytes = raw.pixelBuffer.withUnsafePlanes { planes in
                let offset = 180 * planes[0].bytesPerRow + 440 * 4
                return (Int(planes[0].bytes[offset + redOffset]), Int(planes[0].bytes[offset + blueOffset]))
            }
            try expect(bytes.0 > 200 && bytes.1 < 40, "\(pixelFormat): red bar's red and blue bytes are \(bytes)")
            try expectRedAndBlueBars(try converter.convert(raw.pixelBuffer, to: .bgra), "\(pixelFormat) → BGRA")

            let converted = try await captureOneFrame(from: camera, format: format, convertingToNV12: true)
            try expect(
                converted.pixelBuffer.format == .nv12FullRange,
                "the source delivered \(converted.pixelBuffer.format) when converting \(pixelFormat)")
            try expectRedAndBlueBars(
                try converter.convert(converted.pixelBuffer, to: .bgra), "\(pixelFormat) → NV12 → BGRA")
        }
        return "red and blue bars right in \(offered.map(\.0.name)), raw, as BGRA and through NV12"
    }
}
