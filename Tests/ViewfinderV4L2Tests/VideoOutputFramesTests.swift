import Testing
import ViewfinderCore
import ViewfinderImaging

@testable import ViewfinderV4L2

/// How a video output prepares frames: fitted into its size in black, converted, and copied into driver buffers of
/// any row length.
@Suite struct VideoOutputFramesTests {
    /// A BGRA picture of one colour.
    static func picture(width: Int, height: Int, blue: UInt8, green: UInt8, red: UInt8) throws -> PixelBuffer {
        try PixelBuffer(width: width, height: height, format: .bgra) { planes in
            let plane = planes[0]
            for row in 0..<height {
                for column in 0..<width {
                    let pixel = plane.baseAddress + row * plane.bytesPerRow + column * 4
                    pixel.storeBytes(of: blue, toByteOffset: 0, as: UInt8.self)
                    pixel.storeBytes(of: green, toByteOffset: 1, as: UInt8.self)
                    pixel.storeBytes(of: red, toByteOffset: 2, as: UInt8.self)
                    pixel.storeBytes(of: 255, toByteOffset: 3, as: UInt8.self)
                }
            }
        }
    }

    /// The Y, Cb and Cr of YUYV pixel (x, y) in a buffer with `bytesPerRow` bytes per row.
    static func sample(_ bytes: UnsafeRawBufferPointer, bytesPerRow: Int, x: Int, y: Int) -> (Int, Int, Int) {
        let pair = y * bytesPerRow + (x / 2) * 4
        return (Int(bytes[pair + (x % 2) * 2]), Int(bytes[pair + 1]), Int(bytes[pair + 3]))
    }

    @Test func aPictureOfAnotherShapeIsFittedAndFramedInBlack() throws {
        let frames = try VideoOutputFrames(size: Dimensions(width: 320, height: 180), format: .yuyv)
        #expect(frames.newest.frame == nil)
        // 4:3 into 16:9: 240x180 in the middle, 40 black columns on each side.
        try frames.prepare(try Self.picture(width: 640, height: 480, blue: 0, green: 0, red: 255))
        let (generation, frame) = frames.newest
        #expect(generation == 1)
        let placed = try #require(frame)
        // Kept as I420 until it is packed into the driver's buffer.
        #expect(placed.picture.format == .i420 && placed.picture.width == 240 && placed.picture.height == 180)
        #expect(placed.x == 40 && placed.y == 0)
        let row = 320 * 2
        let driver = UnsafeMutableRawBufferPointer.allocate(byteCount: row * 180, alignment: 16)
        defer { driver.deallocate() }
        frames.copy(placed, to: driver.baseAddress!, bytesPerRow: row, length: driver.count)
        let bytes = UnsafeRawBufferPointer(driver)
        for (x, y) in [(0, 0), (39, 90), (280, 179), (319, 5)] {
            #expect(Self.sample(bytes, bytesPerRow: row, x: x, y: y) == (16, 128, 128), "black at \(x), \(y)")
        }
        for (x, y) in [(40, 0), (160, 90), (279, 179)] {
            // Red in BT.601 video range: Y 81, Cb 90, Cr 240.
            let (luma, cb, cr) = Self.sample(bytes, bytesPerRow: row, x: x, y: y)
            #expect(abs(luma - 81) <= 3 && abs(cb - 90) <= 3 && abs(cr - 240) <= 3, "red at \(x), \(y)")
        }
        #expect(frames.counts == (1, 0))
    }

    @Test func aFullRangeI420PictureOfTheFittedSizeIsKeptAsItIsAndMappedAsItIsPacked() throws {
        let frames = try VideoOutputFrames(size: Dimensions(width: 64, height: 48), format: .yuyv)
        // Full-range grey 200 with chroma 255, as a JPEG decodes: video range is luma 188, chroma 240.
        let picture = try PixelBuffer(width: 64, height: 48, format: .i420FullRange) { planes in
            planes[0].bytes.initializeMemory(as: UInt8.self, repeating: 200)
            planes[1].bytes.initializeMemory(as: UInt8.self, repeating: 255)
            planes[2].bytes.initializeMemory(as: UInt8.self, repeating: 255)
        }
        try frames.prepare(picture)
        let placed = try #require(frames.newest.frame)
        #expect(placed.picture.isSameBuffer(as: picture))
        let row = 64 * 2
        let driver = UnsafeMutableRawBufferPointer.allocate(byteCount: row * 48, alignment: 16)
        defer { driver.deallocate() }
        frames.copy(placed, to: driver.baseAddress!, bytesPerRow: row, length: driver.count)
        for (x, y) in [(0, 0), (31, 24), (63, 47)] {
            #expect(Self.sample(UnsafeRawBufferPointer(driver), bytesPerRow: row, x: x, y: y) == (188, 240, 240))
        }
    }

    @Test func anI420PictureOfAnotherSizeIsKeptAsItIsAndScaledAsItIsPacked() throws {
        let frames = try VideoOutputFrames(size: Dimensions(width: 128, height: 72), format: .yuyv)
        // A 40x30 full-range picture, its left half grey 200 and its right half grey 50: fitted as 96x72, 16 black
        // columns on each side.
        let picture = try PixelBuffer(width: 40, height: 30, format: .i420FullRange) { planes in
            for plane in 0..<3 {
                for row in 0..<planes[plane].height {
                    for column in 0..<planes[plane].width {
                        planes[plane].bytes[row * planes[plane].bytesPerRow + column] =
                            plane > 0 ? 128 : column < 20 ? 200 : 50
                    }
                }
            }
        }
        try frames.prepare(picture)
        let placed = try #require(frames.newest.frame)
        #expect(placed.picture.isSameBuffer(as: picture))
        #expect(placed.x == 16 && placed.y == 0 && placed.size == Dimensions(width: 96, height: 72))
        let row = 128 * 2 + 16
        let driver = UnsafeMutableRawBufferPointer.allocate(byteCount: row * 72, alignment: 16)
        defer { driver.deallocate() }
        driver.initializeMemory(as: UInt8.self, repeating: 7)
        frames.copy(placed, to: driver.baseAddress!, bytesPerRow: row, length: driver.count)
        let bytes = UnsafeRawBufferPointer(driver)
        for y in [0, 35, 71] {
            for x in [0, 15, 112, 127] {
                #expect(Self.sample(bytes, bytesPerRow: row, x: x, y: y) == (16, 128, 128), "black at \(x), \(y)")
            }
            // Video-range 188 and 59 on either side, a blend only about the middle of the picture (column 64).
            for x in 16..<112 {
                let (luma, cb, cr) = Self.sample(bytes, bytesPerRow: row, x: x, y: y)
                #expect(cb == 128 && cr == 128)
                if x < 60 { #expect(luma == 188, "at \(x), \(y)") }
                if x > 67 { #expect(luma == 59, "at \(x), \(y)") }
                if x >= 60, x <= 67 { #expect(luma <= 188 && luma >= 59, "at \(x), \(y)") }
            }
            #expect(driver[y * row + 256] == 7, "the padding after each row is left alone")
        }
        #expect(frames.counts == (1, 0))
    }

    @Test func theBlackAroundAPictureIsLeftAloneWhenTheBufferHoldsItAlready() throws {
        for format in [PixelFormat.yuyv, .i420] {
            let frames = try VideoOutputFrames(size: Dimensions(width: 320, height: 180), format: format)
            try frames.prepare(try Self.picture(width: 640, height: 480, blue: 0, green: 0, red: 255))
            let placed = try #require(frames.newest.frame)
            let row = format == .yuyv ? 320 * 2 : 320
            let length = frames.byteCount(bytesPerRow: row)
            let driver = UnsafeMutableRawBufferPointer.allocate(byteCount: length, alignment: 16)
            defer { driver.deallocate() }
            driver.initializeMemory(as: UInt8.self, repeating: 7)
            frames.copy(placed, to: driver.baseAddress!, bytesPerRow: row, length: length, drawsBorders: false)
            // The picture is written, from its first luma byte at column 40, and nothing to its left or above.
            let left = format == .yuyv ? 80 : 40
            #expect(driver[left - 1] == 7 && driver[left] != 7, "\(format)")
            #expect(driver[row * 179 + row - 1] == 7, "\(format): the right border is left alone")
            frames.copy(placed, to: driver.baseAddress!, bytesPerRow: row, length: length)
            #expect(driver[left - 1] == (format == .yuyv ? 128 : 16) && driver[row * 179 + row - 1] != 7, "\(format)")
        }
        typealias Framing = VideoOutput.Framing
        let picture = Framing.picture(x: 40, y: 0, width: 240, height: 180)
        #expect(Framing.black.isBlack(around: picture) && picture.isBlack(around: picture))
        #expect(!Framing.unknown.isBlack(around: picture))
        #expect(!Framing.picture(x: 30, y: 4, width: 260, height: 171).isBlack(around: picture))
    }

    @Test func withoutEnlargingASmallerFrameKeepsItsExactSizeInTheMiddle() throws {
        let frames = try VideoOutputFrames(size: Dimensions(width: 320, height: 180), format: .yuyv, enlarges: false)
        try frames.prepare(try Self.picture(width: 260, height: 171, blue: 0, green: 0, red: 255))
        let placed = try #require(frames.newest.frame)
        #expect(placed.picture.width == 260 && placed.picture.height == 171)
        #expect(placed.x == 30 && placed.y == 4)
        // A larger one is still made to fit.
        try frames.prepare(try Self.picture(width: 640, height: 360, blue: 0, green: 0, red: 255))
        let fitted = try #require(frames.newest.frame)
        #expect(fitted.picture.width == 320 && fitted.picture.height == 180 && fitted.x == 0)
    }

    @Test func framesCopyIntoDriverBuffersWithLongerRowsAndBlackFillsThem() throws {
        let frames = try VideoOutputFrames(size: Dimensions(width: 64, height: 48), format: .yuyv)
        try frames.prepare(try Self.picture(width: 64, height: 48, blue: 255, green: 0, red: 0))
        let placed = try #require(frames.newest.frame)
        let frame = placed.picture
        #expect(placed.x == 0 && placed.y == 0 && frame.width == 64)
        let bytesPerRow = 64 * 2 + 32
        #expect(frames.byteCount(bytesPerRow: bytesPerRow) == bytesPerRow * 48)
        let driver = UnsafeMutableRawBufferPointer.allocate(byteCount: bytesPerRow * 48, alignment: 16)
        defer { driver.deallocate() }
        driver.initializeMemory(as: UInt8.self, repeating: 7)
        frames.copy(placed, to: driver.baseAddress!, bytesPerRow: bytesPerRow, length: driver.count)
        let packed = try PixelConverter().convert(frame, to: .yuyv)
        packed.withUnsafePlanes { planes in
            for row in 0..<48 {
                let copied = UnsafeRawBufferPointer(rebasing: driver[(row * bytesPerRow)..<(row * bytesPerRow + 128)])
                let source = UnsafeRawBufferPointer(
                    start: planes[0].baseAddress + row * planes[0].bytesPerRow, count: 128)
                #expect(Array(copied) == Array(source), "row \(row)")
            }
        }
        #expect(driver[128] == 7, "the padding after each row is left alone")
        frames.fillBlack(driver.baseAddress!, bytesPerRow: bytesPerRow, length: driver.count)
        #expect(Array(driver[0..<8]) == [16, 128, 16, 128, 16, 128, 16, 128])
        // A buffer too small for a frame is left alone rather than overrun.
        let small = UnsafeMutableRawBufferPointer.allocate(byteCount: 100, alignment: 16)
        defer { small.deallocate() }
        small.initializeMemory(as: UInt8.self, repeating: 9)
        frames.copy(placed, to: small.baseAddress!, bytesPerRow: bytesPerRow, length: small.count)
        #expect(small.allSatisfy { $0 == 9 })
    }

    @Test func aFrameInTheKeptFormatAtItsFittedSizeIsKeptAsItIs() throws {
        let frames = try VideoOutputFrames(size: Dimensions(width: 64, height: 48), format: .yuyv, enlarges: false)
        let i420 = try PixelConverter().convert(
            try Self.picture(width: 40, height: 30, blue: 0, green: 255, red: 0), to: .i420)
        try frames.prepare(i420)
        let placed = try #require(frames.newest.frame)
        #expect(placed.picture.isSameBuffer(as: i420))
        #expect(placed.x == 12 && placed.y == 8)
        let row = 64 * 2
        let driver = UnsafeMutableRawBufferPointer.allocate(byteCount: row * 48, alignment: 16)
        defer { driver.deallocate() }
        frames.copy(placed, to: driver.baseAddress!, bytesPerRow: row, length: driver.count)
        let bytes = UnsafeRawBufferPointer(driver)
        // Green in BT.601 video range: Y 145, Cb 54, Cr 34; black around it.
        let (luma, cb, cr) = Self.sample(bytes, bytesPerRow: row, x: 30, y: 20)
        #expect(abs(luma - 145) <= 3 && abs(cb - 54) <= 3 && abs(cr - 34) <= 3)
        for (x, y) in [(11, 20), (52, 20), (30, 7), (30, 38)] {
            #expect(Self.sample(bytes, bytesPerRow: row, x: x, y: y) == (16, 128, 128), "black at \(x), \(y)")
        }
    }

    @Test func packedCaptureFramesAndPlanarOutputsWork() throws {
        // A YUYV frame, as capture devices send, scaled up into I420.
        let yuyv = try PixelBuffer(width: 32, height: 24, format: .yuyv) { planes in
            let plane = planes[0]
            for row in 0..<24 {
                for pair in 0..<16 {
                    let pixel = plane.baseAddress + row * plane.bytesPerRow + pair * 4
                    for (offset, value) in [(0, 200), (1, 128), (2, 200), (3, 128)] as [(Int, UInt8)] {
                        pixel.storeBytes(of: value, toByteOffset: offset, as: UInt8.self)
                    }
                }
            }
        }
        let frames = try VideoOutputFrames(size: Dimensions(width: 64, height: 48), format: .i420)
        try frames.prepare(yuyv)
        try frames.prepare(yuyv)
        let (generation, frame) = frames.newest
        #expect(generation == 2)
        let output = try #require(frame).picture
        output.withUnsafePlanes { planes in
            #expect(abs(Int(planes[0].bytes[planes[0].bytesPerRow * 20 + 30]) - 200) <= 2)
            #expect(abs(Int(planes[1].bytes[5]) - 128) <= 2 && abs(Int(planes[2].bytes[5]) - 128) <= 2)
        }
        // An I420 driver buffer: the chroma planes' rows are half the luma's.
        #expect(frames.byteCount(bytesPerRow: 64) == 64 * 48 + 2 * 32 * 24)
    }
}
