import CLibYUV
import CTurboJPEG
import Testing
import ViewfinderCore
import ViewfinderImaging

/// Planar decoding into buffers (in place or through scratch planes, chroma merged or resampled) against TurboJPEG's
/// own planar decode of the same images, sample for sample.
@Suite struct JPEGPlanesTests {
    let decoder = JPEGDecoder()

    /// TurboJPEG's constant for a subsampling.
    static func turboJPEG(_ subsampling: JPEGChromaSubsampling) -> Int32 {
        let value =
            switch subsampling {
            case .yuv444: TJSAMP_444
            case .yuv422: TJSAMP_422
            case .yuv420: TJSAMP_420
            case .yuv440: TJSAMP_440
            case .yuv411: TJSAMP_411
            case .grayscale: TJSAMP_GRAY
            }
        return Int32(value.rawValue)
    }

    /// An image with detail in every block, so every coefficient of the IDCT matters.
    static func detailedJPEG(width: Int, height: Int, subsampling: JPEGChromaSubsampling) throws -> [UInt8] {
        let image = try TestImage.make(width: width, height: height, format: .rgb24) { x, y in
            RGB(r: (x * 37 + y * 11) & 255, g: (y * 91 + x * x) & 255, b: (x * y + 64) & 255)
        }
        return try JPEGEncoder(chromaSubsampling: subsampling).encode(image, quality: 90)
    }

    /// TurboJPEG's planes for `jpeg` at `size`: luma, then Cb and Cr at the image's own subsampling, unpadded.
    static func turboJPEGPlanes(_ jpeg: [UInt8], size: Dimensions, subsampling: JPEGChromaSubsampling) throws
        -> [(samples: [UInt8], width: Int, height: Int)]
    {
        let decompressor = try #require(tjInitDecompress())
        defer { tjDestroy(decompressor) }
        let code = turboJPEG(subsampling)
        let count = subsampling == .grayscale ? 1 : 3
        let widths = (0..<count).map { Int(tjPlaneWidth(Int32($0), Int32(size.width), code)) }
        let heights = (0..<count).map { Int(tjPlaneHeight(Int32($0), Int32(size.height), code)) }
        // One allocation per plane, alive until the planes are read.
        let storage = (0..<count).map { UnsafeMutableBufferPointer<UInt8>.allocate(capacity: widths[$0] * heights[$0]) }
        defer { for plane in storage { plane.deallocate() } }
        var planes: [UnsafeMutablePointer<UInt8>?] = (0..<3).map { storage[min($0, count - 1)].baseAddress }
        var strides = (0..<3).map { Int32(widths[min($0, count - 1)]) }
        let status = jpeg.withUnsafeBufferPointer { bytes in
            tjDecompressToYUVPlanes(
                decompressor, bytes.baseAddress, UInt(bytes.count), &planes, Int32(size.width), &strides,
                Int32(size.height), 0)
        }
        try #require(status == 0, "TurboJPEG: \(String(cString: tjGetErrorStr2(decompressor)))")
        // The picture's part of each plane: luma at the picture's size, chroma at its subsampled size.
        let luma = (samples: Array(storage[0]), width: widths[0], height: heights[0])
        let cropped = [crop(luma, width: size.width, height: size.height)]
        guard count == 3 else { return cropped }
        return cropped + (1...2).map { (samples: Array(storage[$0]), width: widths[$0], height: heights[$0]) }
    }

    static func crop(_ plane: (samples: [UInt8], width: Int, height: Int), width: Int, height: Int) -> (
        samples: [UInt8], width: Int, height: Int
    ) {
        let rows = (0..<height).flatMap { row in plane.samples[(row * plane.width)..<(row * plane.width + width)] }
        return (Array(rows), width, height)
    }

    /// A plane of a decoded buffer, `width` samples of `height` rows, each sample `step` bytes from the last.
    static func samples(_ buffer: PixelBuffer, plane: Int, width: Int, height: Int, step: Int = 1, offset: Int = 0)
        -> [UInt8]
    {
        // A plain loop: a closure per sample made this the slowest test under the thread sanitizer, holding the
        // cooperative pool's threads for minutes.
        buffer.withUnsafePlanes { planes in
            let source = planes[plane]
            var result = [UInt8](repeating: 0, count: width * height)
            result.withUnsafeMutableBufferPointer { result in
                for row in 0..<height {
                    let start = source.baseAddress + row * source.bytesPerRow + offset
                    for column in 0..<width {
                        result[row * width + column] = start.load(fromByteOffset: column * step, as: UInt8.self)
                    }
                }
            }
            return result
        }
    }

    /// A chroma plane resampled to 4:2:0 with a box filter, as the decoder does for other subsamplings.
    static func halfSize(_ plane: (samples: [UInt8], width: Int, height: Int), width: Int, height: Int) -> [UInt8] {
        var source = plane.samples
        var result = [UInt8](repeating: 0, count: width * height)
        source.withUnsafeMutableBufferPointer { from in
            result.withUnsafeMutableBufferPointer { to in
                ScalePlane(
                    from.baseAddress, Int32(plane.width), Int32(plane.width), Int32(plane.height), to.baseAddress,
                    Int32(width), Int32(width), Int32(height), kFilterBox)
            }
        }
        return result
    }

    /// The first index where two sample lists differ, with both samples; `nil` when they are equal.
    static func firstDifference(_ ours: [UInt8], _ theirs: [UInt8]) -> (index: Int, ours: UInt8?, theirs: UInt8?)? {
        guard ours != theirs else { return nil }
        let index =
            zip(ours, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(ours.count, theirs.count)
        return (index, index < ours.count ? ours[index] : nil, index < theirs.count ? theirs[index] : nil)
    }

    static let sizes = [(640, 424), (33, 17), (8, 8), (7, 3)]

    @Test(arguments: [JPEGChromaSubsampling.yuv420, .yuv422, .yuv444, .grayscale])
    func planesMatchTurboJPEGs(_ subsampling: JPEGChromaSubsampling) throws {
        for (width, height) in Self.sizes {
            let jpeg = try Self.detailedJPEG(width: width, height: height, subsampling: subsampling)
            let header = try decoder.header(of: jpeg)
            for scale in JPEGDecoder.Scale.all where width < 600 || scale.numerator >= scale.denominator {
                let size = header.dimensions(scaledBy: scale)
                // TurboJPEG picks the largest scale that gives a size; compare only where that is this one.
                guard JPEGDecoder.Scale.largest(for: header.dimensions, fittingIn: size) == scale else { continue }
                let reference = try Self.turboJPEGPlanes(jpeg, size: size, subsampling: subsampling)
                let context = "\(width)x\(height) \(subsampling) at \(scale)"
                // In place (rows aligned to 16 bytes) and through scratch rows (rows as short as the picture's).
                for alignment in [16, 1] {
                    let pool = try PixelBufferPool(
                        width: size.width, height: size.height, format: .nv12FullRange, capacity: 1,
                        rowAlignment: alignment)
                    let decoded = try #require(try decoder.decode(jpeg, scale: scale, into: pool))
                    let luma = Self.samples(decoded, plane: 0, width: size.width, height: size.height)
                    #expect(
                        Self.firstDifference(luma, reference[0].samples) == nil,
                        "luma of \(context), rows aligned to \(alignment)")
                    let (chromaWidth, chromaHeight) = ((size.width + 1) / 2, (size.height + 1) / 2)
                    for component in 1...2 {
                        let chroma = Self.samples(
                            decoded, plane: 1, width: chromaWidth, height: chromaHeight, step: 2, offset: component - 1)
                        let expected =
                            subsampling == .grayscale
                            ? [UInt8](repeating: 128, count: chromaWidth * chromaHeight)
                            : subsampling == .yuv420
                                ? Self.crop(reference[component], width: chromaWidth, height: chromaHeight).samples
                                : Self.halfSize(reference[component], width: chromaWidth, height: chromaHeight)
                        #expect(
                            Self.firstDifference(chroma, expected) == nil,
                            "chroma \(component) of \(context), rows aligned to \(alignment)")
                    }
                }
            }
        }
    }

    @Test func aPaddedPlaneHoldsThePictureAtTheAskedScaleAndRepeatsItsLastRowAndColumn() throws {
        // 8x8 at 13/8 is one block of 13x13; a 4:2:0 buffer at the padded size is 14x14, which 14/8 would fill.
        let jpeg = try Self.detailedJPEG(width: 8, height: 8, subsampling: .yuv420)
        let scale = try #require(JPEGDecoder.Scale(numerator: 13, denominator: 8))
        #expect(try decoder.header(of: jpeg).paddedDimensions(scaledBy: scale) == Dimensions(width: 14, height: 14))
        let pool = try PixelBufferPool(width: 14, height: 14, format: .i420, capacity: 1)
        let decoded = try #require(try decoder.decode(jpeg, scale: scale, into: pool))
        let luma = Self.samples(decoded, plane: 0, width: 14, height: 14)
        for row in 0..<13 {
            #expect(luma[row * 14 + 13] == luma[row * 14 + 12], "row \(row)")
        }
        #expect(Array(luma[(13 * 14)...]) == Array(luma[(12 * 14)..<(13 * 14)]))
        // The picture is the one decoded at 13/8 into a buffer of its own size.
        let unpadded = try decoder.decode(jpeg, to: .i420, scale: scale)
        #expect(
            Self.samples(unpadded, plane: 0, width: 13, height: 13)
                == Self.crop((luma, 14, 14), width: 13, height: 13).samples)
    }
}
