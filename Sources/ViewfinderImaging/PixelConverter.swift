import ViewfinderCore
import ViewfinderSystem

/// Converts pixel buffers between pixel formats with libyuv, and scales, rotates and mirrors them.
///
/// Conversions read YUYV, UYVY, I420, NV12, NV21, RGB24, BGR24, GRAY8 and every four-byte RGB order (BGRA, RGBA,
/// ARGB, ABGR and their padded forms BGRX, RGBX, XRGB, XBGR) and write NV12 (full or video range), NV21, I420, YUYV,
/// BGRA, RGBA, RGB24, BGR24 and GRAY8; a padding byte becomes an opaque alpha. YCbCr and RGB meet through BT.601: the JPEG coefficients
/// for full-range formats, the video ones for video-range formats; a change of range between YCbCr formats maps
/// the samples (luma 16–235 and chroma 16–240 against 0–255).
///
/// A converter keeps the scratch memory some conversions need between calls, so converting a steady stream into a
/// `PixelBufferPool` allocates nothing per frame. It is safe to share between threads.
///
/// ```swift
/// let converter = PixelConverter()
/// let pool = try PixelBufferPool(width: 1280, height: 720, format: .nv12FullRange, capacity: 4)
/// if let nv12 = try converter.convert(frame.pixelBuffer, into: pool) {   // YUYV from a webcam, say
///     deliver(nv12)
/// }
/// let rgb = try converter.convert(nv12, to: .bgra)                        // a new buffer, for one-off use
/// ```
public final class PixelConverter: Sendable {
    let scratch: ReusableResources<ConversionScratch>

    /// Creates a converter.
    public init() {
        scratch = ReusableResources { ConversionScratch() }
    }

    /// Whether buffers of `source` format convert to `destination` format.
    public static func canConvert(from source: PixelFormat, to destination: PixelFormat) -> Bool {
        guard let from = PixelLayout(source), let to = PixelLayout(destination) else { return false }
        return from != .jpeg && to.isConversionOutput
    }

    /// Converts a buffer into a new buffer of `format`.
    ///
    /// - Throws: `ViewfinderError` with code `unsupportedPixelFormat` when ``canConvert(from:to:)`` says no.
    public func convert(_ source: PixelBuffer, to format: PixelFormat) throws -> PixelBuffer {
        try convert(source, output: .newBuffer(format))!
    }

    /// Converts a buffer into one from `pool`, in the pool's format, or returns `nil` when every buffer is in use.
    ///
    /// - Throws: `ViewfinderError` with code `unsupportedPixelFormat` when ``canConvert(from:to:)`` says no, and
    ///   `invalidArgument` when the pool's buffers are not the source's size.
    public func convert(_ source: PixelBuffer, into pool: PixelBufferPool) throws -> PixelBuffer? {
        try convert(source, output: .pool(pool))
    }

    /// Converts a buffer into memory the caller owns, such as a driver's buffer: `planes` holds the first byte and
    /// the bytes from one row to the next of each plane of `format`, with room for the source's size.
    ///
    /// - Throws: `ViewfinderError` with code `unsupportedPixelFormat` when ``canConvert(from:to:)`` says no, and
    ///   `invalidArgument` when `planes` does not have one entry per plane of `format`.
    package func convert(
        _ source: PixelBuffer, into planes: [(address: UnsafeMutableRawPointer, bytesPerRow: Int)], format: PixelFormat
    ) throws {
        guard Self.canConvert(from: source.format, to: format), let layout = PixelLayout(format) else {
            throw ViewfinderError(.unsupportedPixelFormat, "cannot convert \(source.format) to \(format)")
        }
        guard planes.count == format.planes.count, let first = planes.first else {
            throw ViewfinderError(.invalidArgument, "\(format) has \(format.planes.count) planes, not \(planes.count)")
        }
        func plane(_ index: Int) -> PlaneRef {
            let chosen = index < planes.count ? planes[index] : first
            return PlaneRef(chosen.address, stride: chosen.bytesPerRow)
        }
        let destination = ImagePlanes(
            width: source.width, height: source.height, layout: layout, range: SampleRange(format),
            planes: (plane(0), plane(1), plane(2)))
        try source.withUnsafePlanes { sourcePlanes in
            let input = try ImagePlanes(reading: source, planes: sourcePlanes, operation: "conversion")
            try scratch.withResource { Conversion.convert(input, to: destination, scratch: $0) }
        }
    }

    private func convert(_ source: PixelBuffer, output: OutputTarget) throws -> PixelBuffer? {
        guard Self.canConvert(from: source.format, to: output.format) else {
            throw ViewfinderError(
                .unsupportedPixelFormat,
                "cannot convert \(source.format) to \(output.format); conversions read YUYV, UYVY, I420, NV12, NV21, "
                    + "RGB24, BGR24, GRAY8 or four-byte RGB in any order and write NV12, NV21, I420, YUYV, BGRA, "
                    + "RGBA, RGB24, BGR24 or GRAY8")
        }
        return try source.withUnsafePlanes { planes in
            let input = try ImagePlanes(reading: source, planes: planes, operation: "conversion")
            return try output.makeBuffer(width: source.width, height: source.height, operation: "conversion") {
                destination in
                try scratch.withResource { Conversion.convert(input, to: destination, scratch: $0) }
            }
        }
    }
}
