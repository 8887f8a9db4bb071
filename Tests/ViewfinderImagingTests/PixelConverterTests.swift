import Testing
import ViewfinderCore
import ViewfinderImaging

/// The formats conversions write.
let conversionOutputFormats: [PixelFormat] = [
    .nv12FullRange, .nv12VideoRange, .nv21, .i420, .yuyv, .bgra, .rgba, .rgb24, .bgr24, .gray8,
]

/// What a colour looks like after passing through `formats` in turn: greyscale keeps only luma.
func expectedColor(_ color: RGB, through formats: PixelFormat...) -> RGB {
    formats.reduce(color) { TestImage.representable($0, in: $1) }
}

@Suite struct PixelConverterTests {
    let converter = PixelConverter()

    @Test(arguments: uncompressedFormats)
    func knownColoursConvertFrom(_ source: PixelFormat) throws {
        let image = try TestImage.bars(width: 128, height: 8, format: source)
        for destination in conversionOutputFormats {
            #expect(PixelConverter.canConvert(from: source, to: destination))
            let converted = try converter.convert(image, to: destination)
            #expect(converted.format == destination)
            TestImage.expectColors(
                converted, tolerance: 2, at: TestImage.barCentres(width: 128, height: 8), "\(source) → \(destination)"
            ) { x, y in expectedColor(TestImage.barColor()(x, y), through: source, destination) }
        }
    }

    @Test(arguments: [(33, 17), (1, 1), (7, 3), (2, 5), (250, 5)])
    func oddSizesConvertEveryPixel(width: Int, height: Int) throws {
        let colors: [RGB] = [.red, .green, .blue, .white, .grey]
        for source in uncompressedFormats {
            let color = colors[(width + source.name.count) % colors.count]
            let image = try TestImage.make(width: width, height: height, format: source) { _, _ in color }
            for destination in conversionOutputFormats {
                let converted = try converter.convert(image, to: destination)
                #expect((converted.width, converted.height) == (width, height))
                TestImage.expectColors(
                    converted, tolerance: 2, at: TestImage.everyPixel(width: width, height: height),
                    "\(width)x\(height) \(source) → \(destination)"
                ) { _, _ in expectedColor(color, through: source, destination) }
            }
        }
    }

    @Test func stridesWiderThanTheRowAreHonouredBothWays() throws {
        for source in uncompressedFormats {
            let image = try TestImage.bars(width: 48, height: 6, format: source, padding: 40)
            for destination in conversionOutputFormats {
                let pool = try PixelBufferPool(
                    width: 48, height: 6, format: destination, capacity: 1, rowAlignment: 256)
                let converted = try #require(try converter.convert(image, into: pool))
                converted.withUnsafePlanes { planes in #expect(planes[0].bytesPerRow == 256) }
                TestImage.expectColors(
                    converted, tolerance: 2, at: TestImage.everyPixel(width: 48, height: 6),
                    "padded \(source) → \(destination)"
                ) { x, y in expectedColor(TestImage.barColor()(x, y), through: source, destination) }
            }
        }
    }

    @Test func rangesMapBetweenFullAndVideo() throws {
        let white = try TestImage.make(width: 4, height: 2, format: .nv12FullRange) { _, _ in .white }
        let black = try TestImage.make(width: 4, height: 2, format: .nv12FullRange) { _, _ in .black }
        for (image, luma) in [(white, 235), (black, 16)] {
            let video = try converter.convert(image, to: .nv12VideoRange)
            video.withUnsafePlanes { planes in
                #expect(planes[0].bytes.prefix(4).allSatisfy { Int($0) == luma })
                #expect(planes[1].bytes.prefix(4).allSatisfy { $0 == 128 })
            }
            let back = try converter.convert(video, to: .nv12FullRange)
            back.withUnsafePlanes { planes in
                #expect(planes[0].bytes.prefix(4).allSatisfy { Int($0) == (luma == 16 ? 0 : 255) })
            }
        }
        let red = try TestImage.make(width: 2, height: 2, format: .nv12VideoRange) { _, _ in .red }
        let full = try converter.convert(red, to: .nv12FullRange)
        full.withUnsafePlanes { planes in
            let expected = Reference.ycbcr(.red, range: .full)
            #expect(abs(Int(planes[0].bytes[0]) - expected.y) <= 1)
            #expect(abs(Int(planes[1].bytes[0]) - expected.cb) <= 1)
            #expect(abs(Int(planes[1].bytes[1]) - expected.cr) <= 1)
        }
    }

    @Test func everyLumaLevelMapsToVideoRangeInWholeVectorsAndRowEnds() throws {
        // 261 columns: sixteen-sample vectors, then a tail a sample at a time; every level 0-255 in each row.
        let width = 261
        let image = try PixelBuffer(width: width, height: 2, format: .nv12FullRange) { planes in
            for row in 0..<2 {
                for column in 0..<width {
                    planes[0].bytes[row * planes[0].bytesPerRow + column] = UInt8(column % 256)
                }
            }
            planes[1].bytes.initializeMemory(as: UInt8.self, repeating: 255)
        }
        let video = try converter.convert(image, to: .nv12VideoRange)
        video.withUnsafePlanes { planes in
            for column in 0..<width {
                let level = Double(column % 256)
                let mapped = Int(planes[0].bytes[planes[0].bytesPerRow + column])
                #expect(abs(mapped - Int((16 + level * 219 / 255).rounded())) <= 1, "level \(level)")
            }
            // Full-range chroma 255 is video-range 240.
            #expect(planes[1].bytes.prefix(2 * 130).allSatisfy { abs(Int($0) - 240) <= 1 })
        }
    }

    @Test(arguments: [(261, 4), (35, 7), (16, 2), (1, 1), (47, 33)])
    func fullRangeI420PacksAsVideoRangeYUYVInOnePassAsInTwo(width: Int, height: Int) throws {
        // Every level in luma and chroma, in whole vectors, row ends, odd columns and odd rows.
        let image = try PixelBuffer(width: width, height: height, format: .i420FullRange) { planes in
            for plane in 0..<3 {
                for row in 0..<planes[plane].height {
                    for column in 0..<planes[plane].width {
                        planes[plane].bytes[row * planes[plane].bytesPerRow + column] = UInt8(
                            (column * 7 + row * 31 + plane * 85) % 256)
                    }
                }
            }
        }
        let packed = try converter.convert(image, to: .yuyv)
        // Two passes: the range changed in planar form first, then packed.
        let twoPasses = try converter.convert(try converter.convert(image, to: .i420), to: .yuyv)
        func bytes(_ buffer: PixelBuffer) -> [[UInt8]] {
            buffer.withUnsafePlanes { planes in
                (0..<height).map { row in
                    Array(
                        planes[0].bytes[
                            (row * planes[0].bytesPerRow)..<(row * planes[0].bytesPerRow + 4 * ((width + 1) / 2))])
                }
            }
        }
        // The same but for a last odd column's second luma, outside the picture: libyuv writes 0 there.
        func outsideCleared(_ rows: [[UInt8]]) -> [[UInt8]] {
            rows.map { row in
                var row = row
                if width % 2 == 1 { row[2 * width] = 0 }
                return row
            }
        }
        #expect(outsideCleared(bytes(packed)) == bytes(twoPasses))
        // And each sample is the video-range value: luma 16 + y × 219/255, chroma 128 + (c - 128) × 224/255.
        image.withUnsafePlanes { planes in
            let rows = bytes(packed)
            for row in 0..<height {
                for column in 0..<width {
                    let luma = Double(planes[0].bytes[row * planes[0].bytesPerRow + column])
                    let chroma = (1...2).map {
                        Double(planes[$0].bytes[(row / 2) * planes[$0].bytesPerRow + column / 2])
                    }
                    let pair = (column / 2) * 4
                    #expect(abs(Int(rows[row][pair + (column % 2) * 2]) - Int((16 + luma * 219 / 255).rounded())) <= 1)
                    #expect(abs(Int(rows[row][pair + 1]) - Int((128 + (chroma[0] - 128) * 224 / 255).rounded())) <= 1)
                    #expect(abs(Int(rows[row][pair + 3]) - Int((128 + (chroma[1] - 128) * 224 / 255).rounded())) <= 1)
                }
                if width % 2 == 1 {
                    // A last odd column repeats its luma, so the pair is that pixel twice.
                    #expect(rows[row][2 * width] == rows[row][2 * width - 2])
                }
            }
        }
    }

    @Test(arguments: conversionOutputFormats)
    func roundTripsThroughEveryOutputKeepTheColours(_ format: PixelFormat) throws {
        let image = try TestImage.bars(width: 128, height: 4, format: format)
        for middle in conversionOutputFormats {
            let back = try converter.convert(try converter.convert(image, to: middle), to: format)
            #expect(back.format == format)
            // Two conversions, each within 2 levels: 8-bit YCbCr cannot hold every RGB colour exactly.
            TestImage.expectColors(
                back, tolerance: 4, at: TestImage.barCentres(width: 128, height: 4), "\(format) → \(middle) → back"
            ) { x, y in expectedColor(TestImage.barColor()(x, y), through: format, middle) }
        }
    }

    /// A padding byte becomes an opaque alpha and a real alpha is kept, in both four-byte outputs.
    @Test(arguments: [PixelFormat.argb, .abgr, .bgrx, .rgbx, .xrgb, .xbgr])
    func otherFourByteOrdersKeepOrMakeAlpha(_ source: PixelFormat) throws {
        let fourth = try #require(Samples.fourthByte(source))
        let hasAlpha = source == .argb || source == .abgr
        // Alpha 0x40 where there is one, padding 0x11 where there is not; every pixel red.
        let image = try PixelBuffer(width: 20, height: 3, format: source) { planes in
            let bytes = planes[0].bytes
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
            for y in 0..<3 {
                for x in 0..<20 {
                    let red = Samples.locate(source, x: x, y: y, strides: [planes[0].bytesPerRow])[0]
                    bytes[red.offset] = 255
                    bytes[y * planes[0].bytesPerRow + x * 4 + fourth.offset] = hasAlpha ? 0x40 : 0x11
                }
            }
        }
        for destination in [PixelFormat.bgra, .rgba] {
            let converted = try converter.convert(image, to: destination)
            TestImage.expectColors(
                converted, tolerance: 0, at: TestImage.everyPixel(width: 20, height: 3), "\(source) → \(destination)"
            ) { _, _ in .red }
            converted.withUnsafePlanes { planes in
                let alphas = (0..<3).flatMap { y in
                    (0..<20).map { x in planes[0].bytes[y * planes[0].bytesPerRow + x * 4 + 3] }
                }
                #expect(Set(alphas) == [hasAlpha ? 0x40 : 255], "\(source) → \(destination)")
            }
        }
    }

    @Test func convertsIntoPoolBuffersUntilTheyRunOut() throws {
        let image = try TestImage.bars(width: 32, height: 8, format: .yuyv)
        let pool = try PixelBufferPool(width: 32, height: 8, format: .nv12FullRange, capacity: 1)
        var first = try converter.convert(image, into: pool)
        #expect(first != nil)
        #expect(try converter.convert(image, into: pool) == nil)
        first = nil
        #expect(try converter.convert(image, into: pool) != nil)
        let wrongSize = try PixelBufferPool(width: 16, height: 8, format: .nv12FullRange, capacity: 1)
        let error = try #require(throws: ViewfinderError.self) { try converter.convert(image, into: wrongSize) }
        #expect(error.code == .invalidArgument)
    }

    @Test func refusesPairsItCannotConvert() throws {
        let image = try TestImage.bars(width: 16, height: 2, format: .bgra)
        for destination in [PixelFormat.uyvy, .jpeg] {
            #expect(!PixelConverter.canConvert(from: .bgra, to: destination))
            let error = try #require(throws: ViewfinderError.self) { try converter.convert(image, to: destination) }
            #expect(error.code == .unsupportedPixelFormat)
            #expect(error.message.contains("BGRA"))
        }
        let jpeg = try PixelBuffer(compressed: try JPEGEncoder().encode(image), width: 16, height: 2)
        #expect(!PixelConverter.canConvert(from: .jpeg, to: .bgra))
        #expect(throws: ViewfinderError.self) { try converter.convert(jpeg, to: .bgra) }
        let unknown = PixelFormat(fourCC: "Y10 ", colorRange: .video, planes: [.init(bytesPerElement: 2)], name: "Y10")
        #expect(!PixelConverter.canConvert(from: unknown, to: .bgra))
    }
}
