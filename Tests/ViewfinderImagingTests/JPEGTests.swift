import Testing
import ViewfinderCore
import ViewfinderImaging

/// The formats JPEG decoding produces.
let jpegOutputFormats: [PixelFormat] = [
    .nv12FullRange, .nv12VideoRange, .nv21, .i420, .bgra, .rgba, .rgb24, .bgr24, .gray8,
]

@Suite struct JPEGRoundTripTests {
    let encoder = JPEGEncoder()
    let decoder = JPEGDecoder()

    @Test(arguments: uncompressedFormats)
    func barsSurviveEncodingFrom(_ format: PixelFormat) throws {
        let source = try TestImage.bars(width: 128, height: 32, format: format)
        let jpeg = try encoder.encode(source, quality: 95)
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        let header = try decoder.header(of: jpeg)
        #expect(header.dimensions == Dimensions(width: 128, height: 32))
        let expectedSubsampling: JPEGChromaSubsampling =
            switch format.fourCC {
            case "GREY": .grayscale
            case "YUYV", "UYVY": .yuv422
            default: .yuv420
            }
        #expect(header.chromaSubsampling == expectedSubsampling)
        let decoded = try decoder.decode(jpeg, to: .bgra)
        TestImage.expectColors(
            decoded, tolerance: 2, at: TestImage.barCentres(width: 128, height: 32), "\(format) → JPEG → BGRA"
        ) { x, y in TestImage.representable(TestImage.barColor()(x, y), in: format) }
    }

    @Test(arguments: jpegOutputFormats)
    func barsDecodeInto(_ format: PixelFormat) throws {
        let jpeg = try encoder.encode(try TestImage.bars(width: 128, height: 32, format: .rgb24), quality: 95)
        let decoded = try decoder.decode(jpeg, to: format)
        #expect(decoded.format == format)
        #expect((decoded.width, decoded.height) == (128, 32))
        TestImage.expectColors(
            decoded, tolerance: 2, at: TestImage.barCentres(width: 128, height: 32), "JPEG → \(format)",
            expected: TestImage.barColor())
    }

    @Test(arguments: [JPEGChromaSubsampling.yuv444, .yuv422, .yuv440, .yuv411, .grayscale])
    func otherSubsamplingsDecodeToPlanarFormats(_ subsampling: JPEGChromaSubsampling) throws {
        let source = try TestImage.bars(width: 96, height: 48, format: .bgra)
        let jpeg = try JPEGEncoder(chromaSubsampling: subsampling).encode(source, quality: 95)
        #expect(try decoder.header(of: jpeg).chromaSubsampling == subsampling)
        for format in [PixelFormat.nv12FullRange, .nv12VideoRange, .nv21, .i420] {
            let decoded = try decoder.decode(jpeg, to: format)
            // 4:1:1 chroma is interpolated up to 4:2:0, which blurs it by a level or so at the bar centres.
            TestImage.expectColors(
                decoded, tolerance: 3, at: TestImage.barCentres(width: 96, height: 48), "\(subsampling) → \(format)"
            ) { x, y in
                let color = TestImage.barColor()(x, y)
                return subsampling == .grayscale ? TestImage.representable(color, in: .gray8) : color
            }
        }
    }

    @Test(arguments: [(33, 17), (1, 1), (7, 3), (250, 131)])
    func oddSizesRoundTrip(width: Int, height: Int) throws {
        for format in [PixelFormat.nv12FullRange, .i420, .bgra, .rgb24, .yuyv] {
            let source = try TestImage.make(width: width, height: height, format: format) { _, _ in .blue }
            let jpeg = try encoder.encode(source, quality: 95)
            for output in [PixelFormat.nv12FullRange, .i420, .bgra] {
                let decoded = try decoder.decode(jpeg, to: output)
                #expect((decoded.width, decoded.height) == (width, height))
                TestImage.expectColors(
                    decoded, tolerance: 2, at: TestImage.everyPixel(width: width, height: height),
                    "\(width)x\(height) \(format) → \(output)"
                ) { _, _ in .blue }
            }
        }
    }

    @Test func stridesWiderThanTheRowAreHonoured() throws {
        for format in [PixelFormat.nv12VideoRange, .i420, .yuyv, .bgra, .rgb24, .gray8] {
            let source = try TestImage.bars(width: 64, height: 16, format: format, padding: 24)
            let decoded = try decoder.decode(try encoder.encode(source, quality: 95), to: .rgba)
            TestImage.expectColors(
                decoded, tolerance: 2, at: TestImage.barCentres(width: 64, height: 16), "padded \(format)"
            ) { x, y in TestImage.representable(TestImage.barColor()(x, y), in: format) }
        }
    }

    @Test func qualityChangesTheSize() throws {
        let source = try TestImage.make(width: 64, height: 64, format: .rgb24) { x, y in
            RGB(r: (x * 37) & 255, g: (y * 91) & 255, b: (x * y) & 255)
        }
        let small = try encoder.encode(source, quality: 10)
        let large = try encoder.encode(source, quality: 100)
        #expect(small.count < large.count)
        #expect(throws: ViewfinderError.self) { try encoder.encode(source, quality: 0) }
        #expect(throws: ViewfinderError.self) { try encoder.encode(source, quality: 101) }
    }

    @Test func encodingIntoTheEncodersBufferGivesTheSameBytes() throws {
        let source = try TestImage.bars(width: 64, height: 32, format: .nv12FullRange)
        let copied = try encoder.encode(source, quality: 80)
        let borrowed = try encoder.encode(source, quality: 80) { Array($0) }
        #expect(copied == borrowed)
    }

    @Test func compressedBuffersDecodeLikeBytes() throws {
        let jpeg = try encoder.encode(try TestImage.bars(width: 32, height: 16, format: .bgra), quality: 90)
        let buffer = try PixelBuffer(compressed: jpeg, width: 32, height: 16)
        #expect(try decoder.header(of: buffer).dimensions == Dimensions(width: 32, height: 16))
        let decoded = try decoder.decode(buffer, to: .bgra)
        TestImage.expectColors(
            decoded, tolerance: 2, at: TestImage.barCentres(width: 32, height: 16), "from a JPEG buffer",
            expected: TestImage.barColor())
        #expect(throws: ViewfinderError.self) { try encoder.encode(buffer) }
        #expect(throws: ViewfinderError.self) { try decoder.decode(decoded, to: .bgra) }
    }
}

@Suite struct JPEGScaleTests {
    let decoder = JPEGDecoder()

    @Test func scalesAreTheDecodersFractions() {
        #expect(JPEGDecoder.Scale(numerator: 2, denominator: 4) == .half)
        #expect(JPEGDecoder.Scale(numerator: 3, denominator: 8)?.description == "3/8")
        #expect(JPEGDecoder.Scale(numerator: 1, denominator: 3) == nil)
        #expect(JPEGDecoder.Scale(numerator: 3, denominator: 1) == nil)
        #expect(JPEGDecoder.Scale(numerator: 2, denominator: 1)?.description == "2/1")
        #expect(JPEGDecoder.Scale.supported.first == .full)
        #expect(JPEGDecoder.Scale.all.first?.description == "2/1")
        #expect(JPEGDecoder.Scale.all.last == .eighth)
        #expect(JPEGDecoder.Scale.supported.last == .eighth)
        #expect(JPEGDecoder.Scale.half.apply(to: 33) == 17)
        let camera = Dimensions(width: 6000, height: 4000)
        #expect(JPEGDecoder.Scale.fitting(camera, in: Dimensions(width: 1600, height: 1200)) == .quarter)
        #expect(JPEGDecoder.Scale.fitting(camera, in: Dimensions(width: 10, height: 10)) == .eighth)
        #expect(JPEGDecoder.Scale.fitting(camera, in: camera) == .full)
        // Enlarging: a live view frame into a 720p output.
        let frame = Dimensions(width: 640, height: 424)
        #expect(
            JPEGDecoder.Scale.largest(for: frame, fittingIn: Dimensions(width: 1280, height: 720)).description == "13/8"
        )
        #expect(
            JPEGDecoder.Scale.largest(for: frame, fittingIn: Dimensions(width: 1280, height: 848)).description == "2/1")
        #expect(JPEGDecoder.Scale.largest(for: frame, fittingIn: Dimensions(width: 320, height: 212)) == .half)
    }

    @Test(arguments: [
        JPEGDecoder.Scale.half, .quarter, .eighth, JPEGDecoder.Scale(numerator: 3, denominator: 4)!,
        JPEGDecoder.Scale(numerator: 13, denominator: 8)!, JPEGDecoder.Scale(numerator: 2, denominator: 1)!,
    ])
    func scaledDecodesKeepTheColours(_ scale: JPEGDecoder.Scale) throws {
        let source = try TestImage.bars(width: 512, height: 64, format: .nv12FullRange, barWidth: 64)
        let jpeg = try JPEGEncoder().encode(source, quality: 95)
        let header = try decoder.header(of: jpeg)
        let size = header.dimensions(scaledBy: scale)
        #expect(size == Dimensions(width: scale.apply(to: 512), height: scale.apply(to: 64)))
        for format in [PixelFormat.nv12FullRange, .i420, .bgra] {
            let decoded = try decoder.decode(jpeg, to: format, scale: scale)
            #expect(Dimensions(width: decoded.width, height: decoded.height) == size)
            let barWidth = scale.apply(to: 64)
            let centres = stride(from: barWidth / 2, to: size.width - barWidth / 4, by: barWidth).map {
                ($0, size.height / 2)
            }
            TestImage.expectColors(decoded, tolerance: 4, at: centres, "\(scale) \(format)") { x, _ in
                RGB.bars[(x * 512 / size.width / 64) % RGB.bars.count]
            }
        }
    }
}

@Suite struct JPEGPoolTests {
    let decoder = JPEGDecoder()

    @Test func aPoolAtThePaddedSizeTakesTheDecodersPlanesAsTheyAre() throws {
        // 4:2:0 with odd sides: the decoder writes planes a row and a column larger than the picture.
        let jpeg = try JPEGEncoder().encode(try TestImage.bars(width: 33, height: 17, format: .bgra), quality: 90)
        let header = try decoder.header(of: jpeg)
        #expect(header.paddedDimensions(scaledBy: .full) == Dimensions(width: 34, height: 18))
        #expect(header.paddedDimensions(scaledBy: .half) == Dimensions(width: 18, height: 10))
        let exact = try #require(
            try decoder.decode(jpeg, into: PixelBufferPool(width: 33, height: 17, format: .i420, capacity: 1)))
        let padded = try #require(
            try decoder.decode(jpeg, into: PixelBufferPool(width: 34, height: 18, format: .i420, capacity: 1)))
        #expect(padded.width == 34 && padded.height == 18)
        // The picture is the same; the extra row and column hold the image's padding.
        func rows(_ buffer: PixelBuffer, plane: Int, width: Int, height: Int) -> [[UInt8]] {
            buffer.withUnsafePlanes { planes in
                (0..<height).map { row in
                    Array(
                        UnsafeRawBufferPointer(
                            start: planes[plane].baseAddress + row * planes[plane].bytesPerRow, count: width))
                }
            }
        }
        for (plane, width, height) in [(0, 33, 17), (1, 17, 9), (2, 17, 9)] {
            #expect(
                rows(padded, plane: plane, width: width, height: height)
                    == rows(exact, plane: plane, width: width, height: height), "plane \(plane)")
        }
        // Any other size is refused.
        #expect(throws: ViewfinderError.self) {
            try decoder.decode(jpeg, into: PixelBufferPool(width: 34, height: 17, format: .i420, capacity: 1))
        }
    }

    @Test func decodesIntoPoolBuffersAndReusesThem() throws {
        let jpeg = try JPEGEncoder().encode(try TestImage.bars(width: 64, height: 32, format: .bgra), quality: 90)
        let pool = try PixelBufferPool(width: 32, height: 16, format: .nv12FullRange, capacity: 2)
        var first = try decoder.decode(jpeg, scale: .half, into: pool)
        let second = try #require(try decoder.decode(jpeg, scale: .half, into: pool))
        #expect(try decoder.decode(jpeg, scale: .half, into: pool) == nil, "an exhausted pool drops the frame")
        TestImage.expectColors(
            second, tolerance: 4, at: [(4, 8), (12, 8), (20, 8), (28, 8)], "pooled half-size decode",
            expected: TestImage.barColor(barWidth: 8))
        #expect(pool.buffersInUse == 2)
        #expect(first != nil)
        first = nil
        #expect(pool.buffersInUse == 1)
        let third = try #require(try decoder.decode(jpeg, scale: .half, into: pool))
        #expect(!third.isSameBuffer(as: second))
        #expect(pool.buffersInUse == 2)
    }

    @Test func refusesAPoolOfAnotherSize() throws {
        let jpeg = try JPEGEncoder().encode(try TestImage.bars(width: 64, height: 32, format: .bgra), quality: 90)
        let pool = try PixelBufferPool(width: 64, height: 32, format: .bgra, capacity: 1)
        let error = try #require(throws: ViewfinderError.self) { try decoder.decode(jpeg, scale: .half, into: pool) }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("32x16"))
    }

    @Test func refusesFormatsItCannotProduce() throws {
        let jpeg = try JPEGEncoder().encode(try TestImage.bars(width: 16, height: 16, format: .bgra), quality: 90)
        for format in [PixelFormat.yuyv, .uyvy, .jpeg] {
            let error = try #require(throws: ViewfinderError.self) { try decoder.decode(jpeg, to: format) }
            #expect(error.code == .unsupportedPixelFormat || error.code == .invalidArgument)
        }
    }
}

@Suite struct CorruptJPEGTests {
    let decoder = JPEGDecoder()

    func validJPEG() throws -> [UInt8] {
        let source = try TestImage.make(width: 64, height: 64, format: .rgb24) { x, y in
            RGB(r: (x * 37) & 255, g: (y * 91) & 255, b: (x * y) & 255)
        }
        return try JPEGEncoder().encode(source, quality: 90)
    }

    @Test func notAJPEGIsMalformed() throws {
        let garbage: [UInt8] = (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }
        for data in [garbage, [], [0xFF, 0xD8]] {
            let error = try #require(throws: ViewfinderError.self) { try decoder.decode(data, to: .bgra) }
            #expect(error.code == .malformedData)
            #expect(!error.message.isEmpty)
            #expect(throws: ViewfinderError.self) { try decoder.header(of: data) }
        }
    }

    @Test func truncatedDataIsMalformedWithTurboJPEGsMessage() throws {
        let jpeg = try validJPEG()
        let truncated = Array(jpeg.prefix(jpeg.count / 2))
        #expect(try decoder.header(of: truncated).dimensions == Dimensions(width: 64, height: 64))
        for format in [PixelFormat.bgra, .nv12FullRange, .i420] {
            let error = try #require(throws: ViewfinderError.self) { try decoder.decode(truncated, to: format) }
            #expect(error.code == .malformedData)
            #expect(error.message.contains("Premature end of JPEG file"), "\(error.message)")
        }
    }

    @Test func aTolerantDecoderDecodesWhatTheDataHolds() throws {
        let truncated = Array(try validJPEG().dropLast(200))
        let decoded = try JPEGDecoder(toleratesDamagedData: true).decode(truncated, to: .bgra)
        #expect((decoded.width, decoded.height) == (64, 64))
    }

    @Test func corruptEntropyDataIsMalformed() throws {
        var jpeg = try validJPEG()
        let scanStart = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        for index in stride(from: scanStart + 20, to: jpeg.count - 2, by: 7) { jpeg[index] = 0xFF }
        let error = try #require(throws: ViewfinderError.self) { try decoder.decode(jpeg, to: .nv12FullRange) }
        #expect(error.code == .malformedData)
    }

    /// A failure must not poison the decoder: TurboJPEG keeps an instance's state after a failed header, so a reused
    /// instance would fail every later image with the same error.
    @Test func aGoodImageDecodesAfterEveryKindOfBadOne() throws {
        let good = try validJPEG()
        var noFrameHeader = good
        noFrameHeader.replaceSubrange(2..<200, with: repeatElement(0x00, count: 198))
        let garbage: [UInt8] = (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }
        let truncated = Array(good.prefix(good.count / 2))
        for decoder in [JPEGDecoder(), JPEGDecoder(toleratesDamagedData: true)] {
            for bad in [noFrameHeader, garbage, truncated, []] {
                _ = try? decoder.decode(bad, to: .nv12FullRange)
                let decoded = try decoder.decode(good, to: .nv12FullRange)
                #expect((decoded.width, decoded.height) == (64, 64))
                #expect(try decoder.header(of: good).dimensions == Dimensions(width: 64, height: 64))
            }
        }
    }

    @Test func absurdDimensionsAreRefusedBeforeDecoding() throws {
        var jpeg = try validJPEG()
        let frame = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange((frame + 5)..<(frame + 9), with: [0xEA, 0x60, 0xEA, 0x60])
        #expect(try decoder.header(of: jpeg).dimensions == Dimensions(width: 60000, height: 60000))
        let error = try #require(throws: ViewfinderError.self) { try decoder.decode(jpeg, to: .bgra) }
        #expect(error.code == .malformedData)
        #expect(error.message.contains("60000x60000"))
        let strict = JPEGDecoder(maximumPixelCount: 1000)
        let small = try validJPEG()
        let refused = try #require(throws: ViewfinderError.self) { try strict.decode(small, to: .gray8) }
        #expect(refused.message.contains("64x64"))
    }

    /// A picture of few pixels but a side longer than a pixel buffer can have is malformed, not a bad argument.
    @Test func aSideLongerThanAPixelBufferIsRefusedAsMalformed() throws {
        let jpeg = try Self.resized(validJPEG(), width: 40000, height: 8)
        #expect(try decoder.header(of: jpeg).dimensions == Dimensions(width: 40000, height: 8))
        let error = try #require(throws: ViewfinderError.self) { try decoder.decode(jpeg, to: .gray8) }
        #expect(error.code == .malformedData)
        #expect(error.message.contains("40000x8") && error.message.contains("32768"))
    }

    /// `jpeg` with its frame header declaring another size.
    static func resized(_ jpeg: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        var jpeg = jpeg
        let frame = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        let size = [height >> 8, height & 0xFF, width >> 8, width & 0xFF].map { UInt8($0) }
        jpeg.replaceSubrange((frame + 5)..<(frame + 9), with: size)
        return jpeg
    }
}

@Suite struct JPEGThumbnailTests {
    @Test func fittingKeepsTheAspectRatioAndNeverEnlarges() {
        let bounds = Dimensions(width: 160, height: 120)
        #expect(Dimensions(width: 6000, height: 4000).fitted(into: bounds) == Dimensions(width: 160, height: 107))
        #expect(Dimensions(width: 1080, height: 1920).fitted(into: bounds) == Dimensions(width: 68, height: 120))
        #expect(Dimensions(width: 100, height: 50).fitted(into: bounds) == Dimensions(width: 100, height: 50))
        #expect(Dimensions(width: 10_000, height: 1).fitted(into: bounds) == Dimensions(width: 160, height: 1))
    }

    /// Bounds and sizes a caller can pass without thinking: no trap, and a thumbnail of at least one pixel.
    @Test func emptyAndNegativeBoundsGiveOnePixelAndEmptySizesStayAsTheyAre() throws {
        #expect(
            Dimensions(width: 0, height: 100).fitted(into: Dimensions(width: 0, height: 10))
                == Dimensions(width: 0, height: 100))
        #expect(
            Dimensions(width: 100, height: 100).fitted(into: Dimensions(width: -5, height: -5))
                == Dimensions(width: 1, height: 1))
        #expect(
            Dimensions(width: 100, height: 50).fitted(into: Dimensions(width: 0, height: 0))
                == Dimensions(width: 1, height: 1))
        let image = try TestImage.bars(width: 64, height: 32, format: .bgra)
        let jpeg = try JPEGEncoder().encodeThumbnail(of: image, fittingInto: Dimensions(width: -1, height: 0))
        #expect(try JPEGDecoder().header(of: jpeg).dimensions == Dimensions(width: 1, height: 1))
    }

    @Test(arguments: [PixelFormat.nv12FullRange, .i420, .bgra, .rgb24, .gray8])
    func thumbnailsFitTheBoundsAndKeepTheColours(_ format: PixelFormat) throws {
        // Bars of 16 pixels in the thumbnail: whole JPEG blocks, so only the reduction is measured.
        let image = try TestImage.bars(width: 640, height: 320, format: format, barWidth: 128)
        let jpeg = try JPEGEncoder().encodeThumbnail(of: image, fittingInto: Dimensions(width: 80, height: 60))
        let decoder = JPEGDecoder()
        #expect(try decoder.header(of: jpeg).dimensions == Dimensions(width: 80, height: 40))
        let decoded = try decoder.decode(jpeg, to: .bgra)
        TestImage.expectColors(
            decoded, tolerance: 2, at: TestImage.barCentres(width: 80, height: 40), "\(format) thumbnail"
        ) { x, y in expectedColor(TestImage.barColor()(x, y), through: format) }
    }

    @Test func smallImagesAndPackedFormats() throws {
        let encoder = JPEGEncoder()
        let small = try TestImage.bars(width: 64, height: 32, format: .yuyv)
        let jpeg = try encoder.encodeThumbnail(of: small)
        #expect(try JPEGDecoder().header(of: jpeg).dimensions == Dimensions(width: 64, height: 32))
        let large = try TestImage.bars(width: 640, height: 32, format: .yuyv)
        let error = try #require(throws: ViewfinderError.self) { try encoder.encodeThumbnail(of: large) }
        #expect(error.code == .unsupportedPixelFormat)
    }
}

@Suite struct JPEGLiveViewDecoderTests {
    @Test func framesThatSkipDecodingTakeTheirSizeFromTheFrameHeader() throws {
        let jpeg = try JPEGEncoder().encode(try TestImage.bars(width: 250, height: 131, format: .rgb24), quality: 90)
        #expect(JPEGHeader.frameSize(scanning: jpeg[...]) == Dimensions(width: 250, height: 131))
        let decoder = JPEGLiveViewDecoder()
        let skipped = try decoder.decode(jpeg, settings: LiveViewSettings(options: [.skipImageDecoding: true]))
        #expect(skipped.pixelSize == Dimensions(width: 250, height: 131))
        #expect(skipped.pixels == nil)
        let decoded = try decoder.decode(jpeg, settings: LiveViewSettings(options: [:]))
        #expect(decoded.pixelSize == skipped.pixelSize)
        #expect(decoded.pixels.map { ($0.width, $0.height) }! == (250, 131))
    }

    @Test func dataWithoutAFrameHeaderIsStillMalformedWhenDecodingIsSkipped() throws {
        let jpeg = try JPEGEncoder().encode(try TestImage.bars(width: 16, height: 16, format: .rgb24), quality: 90)
        let skip = LiveViewSettings(options: [.skipImageDecoding: true])
        for bad in [
            [0x00, 0x01, 0x02, 0x03], Array(jpeg.prefix(6)), [0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF, 0, 0, 0, 0, 0],
        ] {
            #expect(JPEGHeader.frameSize(scanning: bad[...]) == nil)
            let error = #expect(throws: ViewfinderError.self) { try JPEGLiveViewDecoder().decode(bad, settings: skip) }
            #expect(error?.code == .malformedData)
        }
    }
}
