import FuzzSupport
import ViewfinderBarcode
import ViewfinderCore
import ViewfinderImaging

/// Fuzzes barcode reading with a selector byte, a width byte, a flags byte, then the picture.
///
/// The selector says what the rest is: GRAY8 (0), NV12 (1) or YUYV (2) pixels, rows of `width + 1` pixels, as many
/// whole rows as there are; JPEG data (3); or PNG data (4). The flags give the frame's orientation (bits 0-1),
/// whether it is mirrored (bit 2), whether to read QR alone rather than every symbology (bit 3) and whether to read
/// harder (bit 4).
///
/// Besides crashes and hangs in zxing-cpp and the reader, it checks what must hold: reading fails only with
/// `malformedData` or `unsupportedPixelFormat`, and every code read has a symbology that was asked for.
@main enum BarcodeFuzzer {
    static let readers: [BarcodeReader] = [false, true].flatMap { harder in
        [Set(Symbology.allCases), [.qr]].map {
            BarcodeReader(settings: BarcodeCaptureSettings(enabledSymbologies: $0, tryHarder: harder))
        }
    }

    static func main() {
        FuzzEntry.run(fuzz)
    }

    static func fuzz(_ input: [UInt8]) {
        guard input.count >= 3 else { return }
        let (selector, width, flags) = (input[0] % 5, Int(input[1]) + 1, input[2])
        let data = Array(input.dropFirst(3))
        let image: PixelBuffer
        do {
            switch selector {
            case 0: image = try raw(data, width: width, format: .gray8, bytesPerPixel: 1)
            case 1: image = try raw(data, width: width & ~1, format: .nv12FullRange, bytesPerPixel: 1)
            case 2: image = try raw(data, width: width & ~1, format: .yuyv, bytesPerPixel: 2)
            case 3:
                // As for PNG, pictures up to 4 million pixels: a larger one is a legitimate photo whose gray copy
                // alone outgrows the fuzzer's 64 MB allocation limit.
                guard let header = try? JPEGDecoder().header(of: data),
                    header.dimensions.width * header.dimensions.height <= 4_000_000
                else { return }
                image = try PixelBuffer(
                    compressed: data, width: header.dimensions.width, height: header.dimensions.height)
            default:
                guard let decoded = try? PNGDecoder(maximumPixelCount: 4_000_000).decode(data, to: .gray8) else {
                    return
                }
                image = decoded
            }
        } catch {
            return  // too little data for a picture
        }
        let orientations: [Frame.Orientation] = [.up, .left, .down, .right]
        let frame = Frame(
            pixelBuffer: image, timestamp: .now(), sequenceNumber: 1, orientation: orientations[Int(flags & 3)],
            isMirrored: flags & 4 != 0)
        let reader = readers[Int(flags >> 3) & 3]
        do {
            for barcode in try reader.read(frame) {
                precondition(reader.settings.enabledSymbologies.contains(barcode.symbology), "read \(barcode)")
            }
        } catch let error as ViewfinderError {
            precondition(
                error.code == .malformedData || error.code == .unsupportedPixelFormat, "reading failed with \(error)")
        } catch {
            preconditionFailure("reading failed with \(error)")
        }
    }

    /// A buffer of `format` filled from `data`, as many whole rows of `width` pixels as it holds (NV12: an even
    /// number of rows, the chroma after them).
    static func raw(_ data: [UInt8], width: Int, format: PixelFormat, bytesPerPixel: Int) throws -> PixelBuffer {
        let rowBytes = width * bytesPerPixel
        guard width > 0, rowBytes > 0 else { throw ViewfinderError(.invalidArgument, "no width") }
        var height = format == .nv12FullRange ? (data.count * 2 / 3) / rowBytes : data.count / rowBytes
        if format == .nv12FullRange { height &= ~1 }
        return try PixelBuffer(width: width, height: min(height, 2048), format: format) { planes in
            var offset = 0
            for index in 0..<planes.count {
                let plane = planes[index]
                let count = plane.width * format.planes[index].bytesPerElement
                for row in 0..<plane.height where offset + count <= data.count {
                    data.withUnsafeBytes {
                        (plane.baseAddress + row * plane.bytesPerRow).copyMemory(
                            from: $0.baseAddress! + offset, byteCount: count)
                    }
                    offset += count
                }
            }
        }
    }
}
