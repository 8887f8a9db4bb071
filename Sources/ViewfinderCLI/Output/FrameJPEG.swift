import Viewfinder

/// Turns frames into JPEG images people can open: encodes uncompressed frames, and passes JPEG frames (MJPEG webcams,
/// a camera's live view) through as they are.
struct FrameJPEG: Sendable {
    /// The JPEG quality for encoded frames, from 1 to 100.
    let quality: Int
    private let encoder = JPEGEncoder()

    init(quality: Int) {
        self.quality = quality
    }

    /// The JPEG bytes of an image.
    ///
    /// - Throws: A `ViewfinderError` when the image's pixel format cannot be encoded.
    func encode(_ image: PixelBuffer) throws -> [UInt8] {
        if image.format.isCompressed {
            return image.withUnsafeBytes(ofPlane: 0) { Array($0) }
        }
        return try encoder.encode(image, quality: quality)
    }
}
