import Foundation
import Testing
import ViewfinderCore
import ViewfinderImaging

@testable import ViewfinderBarcode

/// The reader on frames of every layout, orientation and size, and on frames that hold nothing readable.
@Suite struct BarcodeReaderTests {
    static let qr: PixelBuffer = try! CodeSample.qrencode("https://viewfinder.example/corners").render()
    let converter = PixelConverter()

    /// A 640x480 picture with the QR code left of centre, so that turning it moves the code.
    func scene() throws -> PixelBuffer {
        let centred = try Scene.picture(of: Self.qr, width: 400, height: 400, fill: 0.7, background: 230)
        return try PixelBuffer(width: 640, height: 480, format: .gray8) { planes in
            let out = planes[0]
            out.bytes.initializeMemory(as: UInt8.self, repeating: 230)
            centred.withUnsafePlanes { source in
                for y in 0..<400 {
                    (out.baseAddress + (40 + y) * out.bytesPerRow + 20).copyMemory(
                        from: source[0].baseAddress + y * source[0].bytesPerRow, byteCount: 400)
                }
            }
        }
    }

    @Test func pointsAreWhereTheCodeIsShownWhateverTheOrientationAndMirroring() throws {
        let reader = BarcodeReader()
        let upright = try scene()
        let expected = try #require(try reader.read(Scene.frame(upright)).first)
        #expect(expected.location.center.x < 320)
        let inverse: [Frame.Orientation: PixelConverter.Rotation] = [
            .up: .none, .left: .clockwise270, .down: .clockwise180, .right: .clockwise90,
        ]
        for (orientation, rotation) in inverse {
            for mirrored in [false, true] {
                // Pixels that makeUpright turns back into the upright scene: unmirrored, then turned back.
                let pixels = try converter.rotate(
                    try converter.rotate(upright, by: .none, mirrored: mirrored), by: rotation)
                let frame = try Scene.frame(pixels, orientation: orientation, isMirrored: mirrored)
                let shown = try converter.makeUpright(frame)
                #expect(try reader.read(shown).first?.location == expected.location, "\(orientation) \(mirrored)")

                let read = try reader.read(frame)
                #expect(read.count == 1, "\(orientation), mirrored \(mirrored)")
                let location = try #require(read.first?.location)
                for (corner, want) in zip(location.corners, expected.location.corners) {
                    #expect(
                        abs(corner.x - want.x) <= 2 && abs(corner.y - want.y) <= 2,
                        "\(orientation), mirrored \(mirrored): \(location) against \(expected.location)")
                }
            }
        }
    }

    @Test func everyFormatWithLuminanceOrAConversionReads() throws {
        let reader = BarcodeReader()
        let gray = try scene()
        var images: [String: PixelBuffer] = [:]
        for format in [PixelFormat.nv12FullRange, .nv12VideoRange, .nv21, .i420, .gray8, .bgra, .rgba, .rgb24, .bgr24] {
            images["\(format)"] = try converter.convert(gray, to: format)
        }
        let aligned = try PixelBufferPool(
            width: 640, height: 480, format: .nv12FullRange, capacity: 1, rowAlignment: 256)
        let alignedNV12: PixelBuffer = try #require(try converter.convert(gray, into: aligned))
        images["NV12 rows of 768 bytes"] = alignedNV12
        images["YUYV"] = try packed422(gray, lumaFirst: true)
        images["UYVY"] = try packed422(gray, lumaFirst: false)
        let jpeg = try JPEGEncoder().encode(gray, quality: 90)
        images["JPEG"] = try PixelBuffer(compressed: jpeg, width: 640, height: 480)
        for (name, image) in images {
            let read = try reader.read(image)
            #expect(read.map(\.text) == ["https://viewfinder.example/corners"], "\(name)")
        }
        #expect(images.count == 13)
    }

    @Test func framesWithNothingToReadReadNothingAndNeverCrash() throws {
        let reader = BarcodeReader(settings: .stillImage)
        for (width, height) in [(1, 1), (2, 2), (7, 3), (33, 17), (64, 64), (1920, 1080)] {
            for fill in [UInt8(0), 255, 77] {
                let flat = try PixelBuffer(width: width, height: height, format: .nv12FullRange) { planes in
                    planes[0].bytes.initializeMemory(as: UInt8.self, repeating: fill)
                    planes[1].bytes.initializeMemory(as: UInt8.self, repeating: 128)
                }
                #expect(try reader.read(flat).isEmpty, "\(width)x\(height) of \(fill)")
            }
            let noise = try Scene.noisy(
                try PixelBuffer(width: width, height: height, format: .gray8) {
                    $0[0].bytes.initializeMemory(as: UInt8.self, repeating: 128)
                }, amplitude: 127)
            #expect(try reader.read(noise).isEmpty, "\(width)x\(height) of noise")
        }
        var corrupt = try JPEGEncoder().encode(try scene(), quality: 80)
        corrupt.replaceSubrange(2..<40, with: repeatElement(0, count: 38))
        #expect {
            try reader.read(try PixelBuffer(compressed: corrupt, width: 640, height: 480))
        } throws: { ($0 as? ViewfinderError)?.code == .malformedData }
        // A JPEG frame claiming a side longer than any picture: refused before the reader sizes its buffers.
        var long = try JPEGEncoder().encode(try scene(), quality: 80)
        let header = try #require(long.indices.first { long[$0] == 0xFF && long[$0 + 1] == 0xC0 })
        long.replaceSubrange((header + 5)..<(header + 9), with: [0x00, 0x4A, 0xF6, 0x4B])
        #expect {
            try reader.read(try PixelBuffer(compressed: long, width: 63051, height: 74))
        } throws: { ($0 as? ViewfinderError)?.code == .malformedData }
        // The reader reads on after a bad frame.
        #expect(try reader.read(try scene()).count == 1)
    }

    /// A picture (from fuzzing) with a finder pattern whose ring fits no square, on which zxing-cpp 1.4's Micro QR
    /// finder aborts the process: every symbology is read from it, in every orientation, and the process lives on.
    @Test func aFinderPatternOutOfSquareReadsWithoutAborting() throws {
        let path =
            String(#filePath.dropLast("Tests/ViewfinderBarcodeTests/BarcodeReaderTests.swift".count))
            + "Fuzz/Corpus/barcode/gray-micro-qr-degenerate-ring"
        let input = try #require(FileManager.default.contents(atPath: path).map { Array($0) })
        // The fuzzer's layout: GRAY8 (0), rows of 75 pixels (74 + 1), then the pixels.
        #expect(input.prefix(2) == [0, 74])
        let pixels = input.dropFirst(3)
        let (width, height) = (75, pixels.count / 75)
        let picture = try PixelBuffer(width: width, height: height, format: .gray8) { planes in
            for y in 0..<height {
                pixels.dropFirst(y * width).prefix(width).withContiguousStorageIfAvailable {
                    (planes[0].baseAddress + y * planes[0].bytesPerRow).copyMemory(
                        from: $0.baseAddress!, byteCount: width)
                }
            }
        }
        for harder in [false, true] {
            let reader = BarcodeReader(settings: BarcodeCaptureSettings(tryHarder: harder))
            for orientation in [Frame.Orientation.up, .left, .down, .right] {
                for mirrored in [false, true] {
                    let frame = Frame(
                        pixelBuffer: picture, timestamp: .now(), sequenceNumber: 1, orientation: orientation,
                        isMirrored: mirrored)
                    #expect(try reader.read(frame).allSatisfy { $0.symbology != .microQR })
                }
            }
        }
    }

    @Test func noSymbologiesReadNothing() throws {
        let reader = BarcodeReader(settings: BarcodeCaptureSettings(enabledSymbologies: []))
        #expect(try reader.read(try scene()).isEmpty)
    }

    @Test func symbologiesAreNamedAsPeopleWriteThem() {
        #expect(Symbology(name: "QR") == .qr)
        #expect(Symbology(name: "ean-13") == .ean13UPCA)
        #expect(Symbology(name: "EAN-13/UPC-A") == .ean13UPCA)
        #expect(Symbology(name: "upca") == .ean13UPCA)
        #expect(Symbology(name: "Code 128") == .code128)
        #expect(Symbology(name: "dataMatrix") == .dataMatrix)
        #expect(Symbology(name: "pdf417") == .pdf417)
        #expect(Symbology(name: "qrx") == nil)
        #expect(Symbology.allCases.allSatisfy { Symbology(name: $0.description) == $0 })
    }

    /// The gray picture as YUYV or UYVY with neutral chroma.
    private func packed422(_ gray: PixelBuffer, lumaFirst: Bool) throws -> PixelBuffer {
        try gray.withUnsafePlanes { source in
            try PixelBuffer(width: gray.width, height: gray.height, format: lumaFirst ? .yuyv : .uyvy) { planes in
                for y in 0..<gray.height {
                    let input = source[0].baseAddress + y * source[0].bytesPerRow
                    let out = planes[0].baseAddress + y * planes[0].bytesPerRow
                    for x in 0..<gray.width {
                        let luma = input.load(fromByteOffset: x, as: UInt8.self)
                        out.storeBytes(of: luma, toByteOffset: 2 * x + (lumaFirst ? 0 : 1), as: UInt8.self)
                        out.storeBytes(of: 128, toByteOffset: 2 * x + (lumaFirst ? 1 : 0), as: UInt8.self)
                    }
                }
            }
        }
    }
}
