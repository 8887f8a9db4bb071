import Foundation
import Testing
import ViewfinderCore
import ViewfinderImaging

/// Scaling planar 4:2:0 while packing it as YUYV, in one pass into memory the caller owns.
@Suite struct ScalePackingTests {
    let converter = PixelConverter()

    /// A full-range I420 picture whose samples follow `value(plane, x, y)`.
    static func picture(width: Int, height: Int, _ value: (Int, Int, Int) -> Int) throws -> PixelBuffer {
        try PixelBuffer(width: width, height: height, format: .i420FullRange) { planes in
            for plane in 0..<3 {
                for row in 0..<planes[plane].height {
                    for column in 0..<planes[plane].width {
                        planes[plane].bytes[row * planes[plane].bytesPerRow + column] = UInt8(
                            clamping: value(plane, column, row))
                    }
                }
            }
        }
    }

    /// Smooth content: slow waves across and down, different in each plane.
    static func smooth(width: Int, height: Int) throws -> PixelBuffer {
        try picture(width: width, height: height) { plane, x, y in
            let scale = plane == 0 ? 1.0 : 2.0
            let wave = sin(Double(x) * scale / 9 + Double(plane)) * cos(Double(y) * scale / 7)
            return Int((128 + 110 * wave).rounded())
        }
    }

    /// A sample of `plane` at a position in output samples, by bilinear interpolation with centres aligned.
    static func bilinear(
        _ planes: [PixelBuffer.Plane], _ plane: Int, x: Int, y: Int, outputSize: (Int, Int)
    ) -> Double {
        let (width, height) = (planes[plane].width, planes[plane].height)
        func position(_ index: Int, _ length: Int, _ count: Int) -> (Int, Double) {
            let centre = min(max((Double(index) + 0.5) * Double(length) / Double(count) - 0.5, 0), Double(length - 1))
            let start = min(Int(centre), max(length - 2, 0))
            return (start, centre - Double(start))
        }
        let (column, across) = position(x, width, outputSize.0)
        let (row, down) = position(y, height, outputSize.1)
        func sample(_ c: Int, _ r: Int) -> Double {
            Double(planes[plane].bytes[min(r, height - 1) * planes[plane].bytesPerRow + min(c, width - 1)])
        }
        let top = sample(column, row) * (1 - across) + sample(column + 1, row) * across
        let bottom = sample(column, row + 1) * (1 - across) + sample(column + 1, row + 1) * across
        return top * (1 - down) + bottom * down
    }

    /// Packs `source` scaled to `width` x `height` into rows of `bytesPerRow` bytes that start filled with 7.
    func pack(_ source: PixelBuffer, width: Int, height: Int, bytesPerRow: Int) throws -> [UInt8] {
        var memory = [UInt8](repeating: 7, count: bytesPerRow * height)
        try memory.withUnsafeMutableBytes { bytes in
            try converter.scaleAndPack(
                source, to: Dimensions(width: width, height: height), into: bytes.baseAddress!,
                bytesPerRow: bytesPerRow, format: .yuyv)
        }
        return memory
    }

    @Test(arguments: [(640, 424, 1086, 720), (33, 17, 57, 29), (48, 40, 30, 22), (20, 10, 20, 10), (9, 7, 31, 5)])
    func everySampleIsTheBilinearValueMappedToVideoRange(
        sourceWidth: Int, sourceHeight: Int, width: Int, height: Int
    ) throws {
        let source = try Self.smooth(width: sourceWidth, height: sourceHeight)
        let bytesPerRow = 2 * width + 10
        let packed = try pack(source, width: width, height: height, bytesPerRow: bytesPerRow)
        var worst = 0.0
        source.withUnsafePlanes { planes in
            for row in 0..<height {
                for column in 0..<width {
                    let pair = row * bytesPerRow + (column / 2) * 4
                    let luma = Self.bilinear(planes, 0, x: column, y: row, outputSize: (width, height))
                    let chroma = (1...2).map {
                        Self.bilinear(planes, $0, x: column / 2, y: row, outputSize: ((width + 1) / 2, height))
                    }
                    let expected = [16 + luma * 219 / 255] + chroma.map { 128 + ($0 - 128) * 224 / 255 }
                    let actual = [packed[pair + (column % 2) * 2], packed[pair + 1], packed[pair + 3]].map(Double.init)
                    worst = max(worst, zip(expected, actual).map { abs($0 - $1) }.max()!)
                }
                // Nothing is written past the row's pixel pairs.
                let end = row * bytesPerRow + 4 * ((width + 1) / 2)
                #expect(packed[end..<((row + 1) * bytesPerRow)].allSatisfy { $0 == 7 }, "past row \(row)")
            }
        }
        // Positions in 128ths of a sample, and two roundings (the range map's, the row blend's): within one and a half
        // levels of exact arithmetic, where samples change by up to 24 levels from one to the next.
        #expect(worst <= 1.5, "worst difference \(worst)")
    }

    @Test func aPictureOfOneColourKeepsItAtEverySize() throws {
        // Full-range grey 200 with chroma 255 is video-range luma 188 and chroma 240, everywhere.
        let source = try Self.picture(width: 17, height: 11) { plane, _, _ in plane == 0 ? 200 : 255 }
        for (width, height) in [(1, 1), (2, 2), (31, 19), (64, 48), (17, 11), (10, 6)] {
            let pairBytes = 4 * ((width + 1) / 2)
            let packed = try pack(source, width: width, height: height, bytesPerRow: pairBytes + 1)
            for row in 0..<height {
                let start = row * (pairBytes + 1)
                let pixels = Array(packed[start..<(start + pairBytes)])
                let expected = (0..<pairBytes).map { $0 % 2 == 0 ? UInt8(188) : 240 }
                #expect(pixels == expected, "\(width)x\(height), row \(row)")
            }
        }
        // A source of one pixel, or one column, fills the picture with it.
        for (sourceWidth, sourceHeight) in [(1, 1), (1, 9), (9, 1)] {
            let single = try Self.picture(width: sourceWidth, height: sourceHeight) { plane, _, _ in
                plane == 0 ? 0 : 128
            }
            let packed = try pack(single, width: 6, height: 4, bytesPerRow: 12)
            #expect(packed == Array(repeating: [16, 128, 16, 128], count: 12).flatMap { $0 })
        }
    }

    @Test func atItsOwnSizeLumaIsThePlainPackersMappedLuma() throws {
        let source = try Self.picture(width: 37, height: 13) { plane, x, y in (x * 7 + y * 31 + plane * 85) % 256 }
        let packed = try pack(source, width: 37, height: 13, bytesPerRow: 80)
        let plain = try converter.convert(source, to: .yuyv)
        plain.withUnsafePlanes { planes in
            for row in 0..<13 {
                for column in 0..<37 {
                    let expected = planes[0].bytes[row * planes[0].bytesPerRow + 2 * column]
                    #expect(packed[row * 80 + 2 * column] == expected, "luma at \(column), \(row)")
                }
            }
        }
    }

    @Test func formatsAndSizesItCannotTakeAreClearErrors() throws {
        let source = try Self.smooth(width: 16, height: 8)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 16)
        defer { memory.deallocate() }
        let size = Dimensions(width: 32, height: 16)
        #expect(PixelConverter.canScaleWhilePacking(.i420FullRange, into: .yuyv))
        #expect(PixelConverter.canScaleWhilePacking(.i420, into: .yuyv))
        #expect(!PixelConverter.canScaleWhilePacking(.nv12FullRange, into: .yuyv))
        #expect(!PixelConverter.canScaleWhilePacking(.i420, into: .i420))
        let nv12 = try converter.convert(source, to: .nv12FullRange)
        #expect(throws: ViewfinderError.self) {
            try converter.scaleAndPack(nv12, to: size, into: memory, bytesPerRow: 64, format: .yuyv)
        }
        for (bad, bytesPerRow) in [
            (Dimensions(width: 0, height: 16), 64), (size, 4 * 16 - 1), (Dimensions(width: 20000, height: 2), 40000),
        ] {
            do {
                try converter.scaleAndPack(source, to: bad, into: memory, bytesPerRow: bytesPerRow, format: .yuyv)
                Issue.record("\(bad) in rows of \(bytesPerRow) bytes was accepted")
            } catch let error as ViewfinderError {
                #expect(error.code == .invalidArgument)
            }
        }
    }
}
