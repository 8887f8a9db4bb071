import CLibPNG
import ViewfinderCore

/// Decodes PNG images with libpng into gray or RGB pixel buffers.
///
/// Every PNG kind decodes: gray, palette, RGB, with or without alpha, 8 or 16 bits a sample, interlaced or not.
/// Transparent pixels are composited on white, the way a viewer shows them on a page. The decoder reads the size
/// from the header and refuses images over ``maximumPixelCount`` before it allocates anything.
///
/// ```swift
/// let decoder = PNGDecoder()
/// let gray = try decoder.decode(pngBytes, to: .gray8)
/// print("\(gray.width)x\(gray.height)")
/// ```
public struct PNGDecoder: Sendable {
    /// The largest image, in pixels, the decoder accepts.
    public let maximumPixelCount: Int

    /// Creates a decoder that accepts images of up to `maximumPixelCount` pixels.
    public init(maximumPixelCount: Int = JPEGDecoder.defaultMaximumPixelCount) {
        self.maximumPixelCount = maximumPixelCount
    }

    /// Whether PNG data starts with the PNG signature.
    public static func isPNG(_ data: some Collection<UInt8>) -> Bool {
        data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// Decodes a PNG image into a new buffer of `format`: GRAY8, RGB24, BGR24, RGBA or BGRA.
    ///
    /// - Throws: `ViewfinderError` with code `malformedData` for data that is not a whole PNG image or is larger
    ///   than ``maximumPixelCount``, with libpng's message, and `unsupportedPixelFormat` for other formats.
    public func decode(_ png: some Collection<UInt8>, to format: PixelFormat) throws -> PixelBuffer {
        let color = UInt32(PNG_FORMAT_FLAG_COLOR)
        let alpha = UInt32(PNG_FORMAT_FLAG_ALPHA)
        let bgr = UInt32(PNG_FORMAT_FLAG_BGR)
        let pngFormat: UInt32
        switch format {
        case .gray8: pngFormat = 0
        case .rgb24: pngFormat = color
        case .bgr24: pngFormat = color | bgr
        case .rgba: pngFormat = color | alpha
        case .bgra: pngFormat = color | bgr | alpha
        default:
            throw ViewfinderError(
                .unsupportedPixelFormat, "PNG images decode to GRAY8, RGB24, BGR24, RGBA or BGRA, not \(format)")
        }
        // libpng reads from the data until the image is finished: the whole decode runs inside one borrow.
        return try withContiguousBytes(png) { data in try decode(data, pngFormat: pngFormat, format: format) }
    }

    private func decode(_ data: UnsafeRawBufferPointer, pngFormat: UInt32, format: PixelFormat) throws -> PixelBuffer {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_memory(&image, data.baseAddress, data.count) != 0 else {
            throw Self.failure(image, "read the PNG header")
        }
        let width = Int(image.width)
        let height = Int(image.height)
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, width * height <= maximumPixelCount else {
            throw ViewfinderError(
                .malformedData,
                "a PNG image of \(width)x\(height) is larger than the decoder takes (\(maximumPixelCount) pixels, "
                    + "32768 a side)")
        }
        image.format = pngFormat
        var white = png_color(red: 255, green: 255, blue: 255)
        return try PixelBuffer(width: width, height: height, format: format) { planes in
            let plane = planes[0]
            guard png_image_finish_read(&image, &white, plane.baseAddress, Int32(plane.bytesPerRow), nil) != 0 else {
                throw Self.failure(image, "decode the PNG image")
            }
        }
    }

    private static func failure(_ image: png_image, _ activity: String) -> ViewfinderError {
        var message = image.message
        let text = withUnsafeBytes(of: &message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return ViewfinderError(.malformedData, "could not \(activity): \(text.isEmpty ? "not a PNG image" : text)")
    }
}
