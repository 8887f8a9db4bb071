import ViewfinderCore
import ViewfinderSystem

/// Decodes the JPEG images of a camera's live view into frames, through a small pool of buffers that are reused once
/// consumers let go of them.
///
/// ``JPEGDecoder`` tolerates damaged data here, as live view images are often cut short. Frames are decoded at half
/// size when the subscriber favours a high frame rate (`LiveViewOption/favorHighFrameRate`).
public final class JPEGLiveViewDecoder: LiveViewImageDecoder {
    private let decoder = JPEGDecoder(toleratesDamagedData: true)
    private let pool = Locked<PixelBufferPool?>(nil)

    /// The pixel format frames are decoded to.
    public let pixelFormat: PixelFormat

    /// Creates a decoder.
    ///
    /// - Parameter pixelFormat: The pixel format frames are decoded to: NV12 full range by default, what a
    ///   `DataCaptureContext` takes; BGRA, RGBA, I420 and the others ``JPEGDecoder`` makes also work.
    public init(pixelFormat: PixelFormat = .nv12FullRange) {
        self.pixelFormat = pixelFormat
    }

    /// The image's size and, unless `settings` says to skip decoding, its pixels.
    ///
    /// When decoding is skipped, the size comes from the JPEG's frame header without TurboJPEG, unless that header
    /// cannot be found.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for data that is not a readable JPEG image.
    public func decode(_ image: [UInt8], settings: LiveViewSettings) throws -> (
        pixelSize: Dimensions, pixels: PixelBuffer?
    ) {
        if settings.skipsImageDecoding, let size = JPEGHeader.frameSize(scanning: image[...]), size.width > 0,
            size.height > 0
        {
            return (size, nil)
        }
        let header = try decoder.header(of: image)
        guard !settings.skipsImageDecoding else { return (header.dimensions, nil) }
        let scale: JPEGDecoder.Scale = settings.favorsHighFrameRate ? .half : .full
        return (header.dimensions, try decode(image, header: header, scale: scale))
    }

    /// Decodes into the pool; when consumers hold on to every buffer, into a new one.
    private func decode(_ jpeg: [UInt8], header: JPEGHeader, scale: JPEGDecoder.Scale) throws -> PixelBuffer {
        let size = header.dimensions(scaledBy: scale)
        let format = pixelFormat
        let pool = try self.pool.withLock { pool in
            if let existing = pool, existing.width == size.width, existing.height == size.height,
                existing.format == format
            {
                return existing
            }
            let made = try PixelBufferPool(width: size.width, height: size.height, format: format, capacity: 4)
            pool = made
            return made
        }
        if let buffer = try decoder.decode(jpeg, scale: scale, into: pool) {
            return buffer
        }
        return try decoder.decode(jpeg, to: format, scale: scale)
    }
}
