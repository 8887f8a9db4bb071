import CTurboJPEG
import ViewfinderCore

/// Encodes the simulator's rendered images as JPEG.
///
/// The one place where images become JPEG bytes, so the encoder behind it can change without touching the rest.
enum SimulatorJPEG {
    /// Encodes a full-range NV12 buffer at `quality` (1–100).
    static func encode(_ image: PixelBuffer, quality: Int) throws -> [UInt8] {
        guard image.format == .nv12FullRange else {
            throw ViewfinderError(.unsupportedPixelFormat, "the simulator encodes NV12 images, not \(image.format)")
        }
        let width = image.width
        let height = image.height
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        var cb = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
        var cr = [UInt8](repeating: 0, count: chromaWidth * chromaHeight)
        image.withUnsafePlanes { planes in
            let pairs = planes[1]
            for y in 0..<chromaHeight {
                let row = pairs.baseAddress.advanced(by: y * pairs.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for x in 0..<chromaWidth {
                    cb[y * chromaWidth + x] = row[x * 2]
                    cr[y * chromaWidth + x] = row[x * 2 + 1]
                }
            }
        }
        guard let handle = tjInitCompress() else {
            throw ViewfinderError(.io, "cannot start the JPEG encoder")
        }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.withUnsafePlanes { planes in
            cb.withUnsafeBufferPointer { cbBytes in
                cr.withUnsafeBufferPointer { crBytes in
                    var sources: [UnsafePointer<UInt8>?] = [
                        planes[0].baseAddress.assumingMemoryBound(to: UInt8.self), cbBytes.baseAddress,
                        crBytes.baseAddress,
                    ]
                    var strides: [Int32] = [Int32(planes[0].bytesPerRow), Int32(chromaWidth), Int32(chromaWidth)]
                    return tjCompressFromYUVPlanes(
                        handle, &sources, Int32(width), &strides, Int32(height), Int32(TJSAMP_420.rawValue), &output,
                        &size, Int32(quality), 0)
                }
            }
        }
        defer { tjFree(output) }
        guard status == 0, let output else {
            throw ViewfinderError(.io, "JPEG encoding failed: \(String(cString: tjGetErrorStr2(handle)))")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
