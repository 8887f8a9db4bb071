import Testing
import ViewfinderCore
import ViewfinderImaging

/// The formats scaling and rotation handle.
let transformableFormats: [PixelFormat] = [
    .nv12FullRange, .nv12VideoRange, .nv21, .i420, .bgra, .rgba, .rgb24, .bgr24, .gray8,
]

/// Where pixel (x, y) of a `width` × `height` image lands after `turns` clockwise quarter turns and, when
/// `mirrored`, a left-to-right flip of the result.
func transformed(_ x: Int, _ y: Int, width: Int, height: Int, turns: Int, mirrored: Bool) -> (Int, Int) {
    var (px, py, w, h) = (x, y, width, height)
    for _ in 0..<turns {
        (px, py) = (h - 1 - py, px)
        (w, h) = (h, w)
    }
    return (mirrored ? w - 1 - px : px, py)
}

/// Four quadrants: red top left, green top right, blue bottom left, white bottom right.
func quadrant(width: Int, height: Int) -> (Int, Int) -> RGB {
    { x, y in
        switch (x < width / 2, y < height / 2) {
        case (true, true): .red
        case (false, true): .green
        case (true, false): .blue
        case (false, false): .white
        }
    }
}

@Suite struct ScalingTests {
    let converter = PixelConverter()

    @Test(arguments: transformableFormats)
    func scalingKeepsTheBars(_ format: PixelFormat) throws {
        let image = try TestImage.bars(width: 256, height: 16, format: format, barWidth: 32)
        for (width, filter) in [(128, PixelConverter.ScalingFilter.box), (64, .bilinear), (512, .nearest)] {
            let barWidth = 32 * width / 256
            let scaled = try converter.scale(image, to: Dimensions(width: width, height: 8), filter: filter)
            #expect((scaled.width, scaled.height, scaled.format) == (width, 8, format))
            TestImage.expectColors(
                scaled, tolerance: 2, at: TestImage.barCentres(width: width, height: 8, barWidth: barWidth),
                "\(format) to \(width) wide with \(filter)"
            ) { x, y in expectedColor(TestImage.barColor(barWidth: barWidth)(x, y), through: format) }
        }
    }

    @Test func oddSizesScaleEveryPixel() throws {
        for format in transformableFormats {
            let image = try TestImage.make(width: 33, height: 17, format: format, padding: 5) { _, _ in .green }
            for size in [
                Dimensions(width: 10, height: 7), Dimensions(width: 1, height: 1), Dimensions(width: 67, height: 35),
            ] {
                let scaled = try converter.scale(image, to: size)
                TestImage.expectColors(
                    scaled, tolerance: 2, at: TestImage.everyPixel(width: size.width, height: size.height),
                    "\(format) 33x17 to \(size)"
                ) { _, _ in expectedColor(.green, through: format) }
            }
        }
    }

    @Test func scalesIntoAPoolOfTheTargetSize() throws {
        let image = try TestImage.bars(width: 64, height: 8, format: .nv12FullRange)
        let pool = try PixelBufferPool(width: 32, height: 4, format: .nv12FullRange, capacity: 1)
        let scaled = try #require(try converter.scale(image, into: pool))
        TestImage.expectColors(
            scaled, tolerance: 2, at: TestImage.barCentres(width: 32, height: 4, barWidth: 8), "pooled scale",
            expected: TestImage.barColor(barWidth: 8))
        #expect(try converter.scale(image, into: pool) == nil)
        let otherFormat = try PixelBufferPool(width: 32, height: 4, format: .bgra, capacity: 1)
        let error = try #require(throws: ViewfinderError.self) { try converter.scale(image, into: otherFormat) }
        #expect(error.code == .invalidArgument)
    }

    @Test func packedFormatsMustBeConvertedFirst() throws {
        for format in [PixelFormat.yuyv, .uyvy] {
            let image = try TestImage.bars(width: 16, height: 4, format: format)
            let error = try #require(throws: ViewfinderError.self) {
                try converter.scale(image, to: Dimensions(width: 8, height: 2))
            }
            #expect(error.code == .unsupportedPixelFormat)
            #expect(throws: ViewfinderError.self) { try converter.rotate(image, by: .clockwise90) }
        }
        let image = try TestImage.bars(width: 16, height: 4, format: .bgra)
        #expect(throws: ViewfinderError.self) { try converter.scale(image, to: Dimensions(width: 0, height: 2)) }
    }
}

@Suite struct RotationTests {
    let converter = PixelConverter()
    let rotations: [PixelConverter.Rotation] = [.none, .clockwise90, .clockwise180, .clockwise270]

    @Test(arguments: transformableFormats)
    func rotationsAndMirrorsPutEveryQuadrantInItsPlace(_ format: PixelFormat) throws {
        let (width, height) = (68, 36)
        let color = quadrant(width: width, height: height)
        let image = try TestImage.make(width: width, height: height, format: format, padding: 12, color: color)
        let probes = [(8, 6), (60, 6), (8, 30), (60, 30), (30, 14), (38, 22)]
        for (turns, rotation) in rotations.enumerated() {
            for mirrored in [false, true] {
                let turned = try converter.rotate(image, by: rotation, mirrored: mirrored)
                let size = rotation.rotated(Dimensions(width: width, height: height))
                #expect(Dimensions(width: turned.width, height: turned.height) == size)
                for (x, y) in probes {
                    let (tx, ty) = transformed(x, y, width: width, height: height, turns: turns, mirrored: mirrored)
                    TestImage.expectColors(
                        turned, tolerance: 2, at: [(tx, ty)], "\(format) \(rotation) mirrored: \(mirrored)"
                    ) { _, _ in expectedColor(color(x, y), through: format) }
                }
            }
        }
    }

    @Test func oddSizesRotateEveryPixel() throws {
        for format in transformableFormats {
            let image = try TestImage.make(width: 7, height: 5, format: format) { _, _ in .blue }
            for rotation in rotations {
                let turned = try converter.rotate(image, by: rotation, mirrored: rotation == .clockwise90)
                TestImage.expectColors(
                    turned, tolerance: 2, at: TestImage.everyPixel(width: turned.width, height: turned.height),
                    "\(format) 7x5 \(rotation)"
                ) { _, _ in expectedColor(.blue, through: format) }
            }
        }
    }

    @Test func rotatesIntoAPoolOfTheRotatedSize() throws {
        let image = try TestImage.make(width: 16, height: 8, format: .i420, color: quadrant(width: 16, height: 8))
        let pool = try PixelBufferPool(width: 8, height: 16, format: .i420, capacity: 1)
        let turned = try #require(try converter.rotate(image, by: .clockwise270, into: pool))
        // A counter-clockwise quarter turn brings the top-right green quadrant to the top left.
        TestImage.expectColors(turned, tolerance: 2, at: [(2, 2)], "pooled rotation") { _, _ in .green }
        let wrong = try PixelBufferPool(width: 16, height: 8, format: .i420, capacity: 1)
        #expect(throws: ViewfinderError.self) { try converter.rotate(image, by: .clockwise90, into: wrong) }
    }
}

@Suite struct UprightTests {
    let converter = PixelConverter()

    func frame(_ buffer: PixelBuffer, _ orientation: Frame.Orientation, mirrored: Bool) -> Frame {
        Frame(
            pixelBuffer: buffer, timestamp: MonotonicTimestamp(nanoseconds: 42), sequenceNumber: 7,
            orientation: orientation, isMirrored: mirrored)
    }

    @Test func orientationSaysWhereTheTopIs() throws {
        // The top of the picture (red) is at the left of the stored pixels: a quarter turn clockwise shows it.
        let stored = try TestImage.make(width: 8, height: 16, format: .nv12FullRange) { x, _ in x < 4 ? .red : .blue }
        let upright = try converter.makeUpright(frame(stored, .left, mirrored: false))
        #expect((upright.pixelBuffer.width, upright.pixelBuffer.height) == (16, 8))
        TestImage.expectColors(upright.pixelBuffer, tolerance: 2, at: [(8, 1)], "top after .left") { _, _ in .red }
        TestImage.expectColors(upright.pixelBuffer, tolerance: 2, at: [(8, 6)], "bottom after .left") { _, _ in .blue }
        // The top is at the right: a quarter turn counter-clockwise.
        let right = try converter.makeUpright(frame(stored, .right, mirrored: false))
        TestImage.expectColors(right.pixelBuffer, tolerance: 2, at: [(8, 6)], "bottom after .right") { _, _ in .red }
    }

    @Test func mirroredFramesAreFlippedBackAfterTheRotation() throws {
        // Shown upright, the mirrored picture has red on its right: flipped back, red is on the left.
        let stored = try TestImage.make(width: 16, height: 8, format: .bgra) { x, _ in x < 8 ? .blue : .red }
        let upright = try converter.makeUpright(frame(stored, .up, mirrored: true))
        TestImage.expectColors(upright.pixelBuffer, tolerance: 0, at: [(2, 4)], "left after unmirroring") { _, _ in
            .red
        }
        // Stored upside down and mirrored: the half turn leaves red on the left of the shown picture, the flip
        // moves it to the right.
        let down = try converter.makeUpright(frame(stored, .down, mirrored: true))
        TestImage.expectColors(down.pixelBuffer, tolerance: 0, at: [(2, 4)], "left after .down mirrored") { _, _ in
            .blue
        }
    }

    @Test(arguments: [Frame.Orientation.up, .left, .down, .right])
    func everyOrientationComesOutUprightAndUnmirrored(_ orientation: Frame.Orientation) throws {
        let (width, height) = (20, 12)
        let color = quadrant(width: width, height: height)
        let rotation = PixelConverter.Rotation(showingUpright: orientation)
        let turns = [PixelConverter.Rotation.none, .clockwise90, .clockwise180, .clockwise270].firstIndex(of: rotation)!
        for format in [PixelFormat.nv12FullRange, .bgra, .gray8] {
            let image = try TestImage.make(width: width, height: height, format: format, color: color)
            for mirrored in [false, true] {
                let upright = try converter.makeUpright(frame(image, orientation, mirrored: mirrored))
                #expect(upright.orientation == .up)
                #expect(!upright.isMirrored)
                #expect(upright.timestamp == MonotonicTimestamp(nanoseconds: 42))
                #expect(upright.sequenceNumber == 7)
                for (x, y) in [(2, 2), (17, 2), (2, 9), (17, 9)] {
                    let (tx, ty) = transformed(x, y, width: width, height: height, turns: turns, mirrored: mirrored)
                    TestImage.expectColors(
                        upright.pixelBuffer, tolerance: 2, at: [(tx, ty)], "\(orientation) \(format)"
                    ) { _, _ in expectedColor(color(x, y), through: format) }
                }
            }
        }
    }

    @Test func uprightFramesComeBackWithoutACopy() throws {
        let image = try TestImage.bars(width: 16, height: 8, format: .nv12FullRange)
        let pool = try PixelBufferPool(width: 16, height: 8, format: .nv12FullRange, capacity: 1)
        let same = try converter.makeUpright(frame(image, .up, mirrored: false))
        #expect(same.pixelBuffer.isSameBuffer(as: image))
        let pooled = try #require(try converter.makeUpright(frame(image, .down, mirrored: false), into: pool))
        #expect(!pooled.pixelBuffer.isSameBuffer(as: image))
        #expect(try converter.makeUpright(frame(image, .down, mirrored: false), into: pool) == nil)
    }
}
