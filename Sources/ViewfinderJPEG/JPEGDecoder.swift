import CTurboJPEG
import CViewfinderPixels
import ViewfinderCore
import ViewfinderSystem

/// Decodes JPEG images, such as camera live view and MJPEG webcam frames, into pixel buffers with libjpeg-turbo.
///
/// A decoder keeps its TurboJPEG instance and scratch memory between images, so a steady stream decoded into a
/// `PixelBufferPool` allocates nothing of its own per frame. It is safe to share between threads; concurrent
/// decodes each get their own instance.
///
/// ```swift
/// let decoder = JPEGDecoder()
/// let header = try decoder.header(of: jpeg)
/// let size = header.dimensions(scaledBy: .quarter)
/// let pool = try PixelBufferPool(width: size.width, height: size.height, format: .bgra, capacity: 3)
/// if let preview = try decoder.decode(jpeg, scale: .quarter, into: pool) {
///     show(preview)
/// }
/// ```
///
/// Decoding produces NV12 or I420 (either range), NV21, BGRA, RGBA, RGB24, BGR24 or GRAY8. Images whose header
/// declares more than ``maximumPixelCount`` pixels are refused before any pixel memory is allocated.
public final class JPEGDecoder: Sendable {
    /// The largest image a decoder accepts by default: 100 million pixels, above any current camera sensor.
    public static let defaultMaximumPixelCount = 100_000_000

    /// The most pixels an image's header may declare for it to be decoded; larger images are refused as malformed.
    public let maximumPixelCount: Int
    /// Whether images with recoverable damage, such as truncated data or stray bytes, decode anyway.
    ///
    /// When `false`, TurboJPEG's first warning fails the decode. When `true`, a damaged image decodes as far as its
    /// data goes (the rest is grey), which suits live view, where the next frame replaces a damaged one.
    public let toleratesDamagedData: Bool
    private let instances: ReusableResources<TurboJPEGHandle>

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - maximumPixelCount: The most pixels an image's header may declare.
    ///   - toleratesDamagedData: Whether images with recoverable damage decode anyway.
    public init(maximumPixelCount: Int = JPEGDecoder.defaultMaximumPixelCount, toleratesDamagedData: Bool = false) {
        self.maximumPixelCount = maximumPixelCount
        self.toleratesDamagedData = toleratesDamagedData
        self.instances = ReusableResources { try TurboJPEGHandle(.decompressor) }
    }

    /// Reads the header of a JPEG image: its size, subsampling and colour space.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the bytes are not a JPEG image TurboJPEG can read.
    @inlinable
    public func header(of jpeg: some Collection<UInt8>) throws -> JPEGHeader {
        try withContiguousBytes(jpeg) { try header(ofBytes: $0) }
    }

    /// Reads the header of a JPEG image held in a compressed pixel buffer.
    ///
    /// - Throws: `ViewfinderError/Code/unsupportedPixelFormat` when the buffer does not hold JPEG data, and
    ///   `ViewfinderError/Code/malformedData` when its bytes are not a JPEG image.
    public func header(of jpeg: PixelBuffer) throws -> JPEGHeader {
        try Self.withJPEGBytes(of: jpeg) { try header(ofBytes: $0) }
    }

    /// Decodes a JPEG image into a new buffer of `format`.
    ///
    /// - Parameters:
    ///   - jpeg: The JPEG data.
    ///   - format: NV12 or I420 (either range), NV21, BGRA, RGBA, RGB24, BGR24 or GRAY8.
    ///   - scale: How much to reduce the image while decoding.
    /// - Throws: `ViewfinderError/Code/malformedData` for corrupt, truncated or oversized images, with
    ///   TurboJPEG's message, and `ViewfinderError/Code/unsupportedPixelFormat` for other formats.
    @inlinable
    public func decode(_ jpeg: some Collection<UInt8>, to format: PixelFormat, scale: Scale = .full) throws
        -> PixelBuffer
    {
        try withContiguousBytes(jpeg) { try decode(bytes: $0, scale: scale, output: .newBuffer(format))! }
    }

    /// Decodes a JPEG image into a buffer from `pool`, or returns `nil` when every buffer of the pool is in use.
    ///
    /// The pool's format is the output format and its size must be the image's size at `scale`
    /// (``JPEGHeader/dimensions(scaledBy:)``), or for a planar format that size rounded up to whole chroma samples
    /// (``JPEGHeader/paddedDimensions(scaledBy:)``), which decodes without copying the luma plane.
    ///
    /// - Throws: As ``decode(_:to:scale:)-(Collection<UInt8>,_,_)``, and `ViewfinderError/Code/invalidArgument`
    ///   when the pool's size differs from the decoded image's.
    @inlinable
    public func decode(_ jpeg: some Collection<UInt8>, scale: Scale = .full, into pool: PixelBufferPool) throws
        -> PixelBuffer?
    {
        try withContiguousBytes(jpeg) { try decode(bytes: $0, scale: scale, output: .pool(pool)) }
    }

    /// Decodes a JPEG image held in a compressed pixel buffer into a new buffer of `format`.
    public func decode(_ jpeg: PixelBuffer, to format: PixelFormat, scale: Scale = .full) throws -> PixelBuffer {
        try Self.withJPEGBytes(of: jpeg) { try decode(bytes: $0, scale: scale, output: .newBuffer(format))! }
    }

    /// Decodes a JPEG image held in a compressed pixel buffer into a buffer from `pool`; `nil` when it has none free.
    public func decode(_ jpeg: PixelBuffer, scale: Scale = .full, into pool: PixelBufferPool) throws -> PixelBuffer? {
        try Self.withJPEGBytes(of: jpeg) { try decode(bytes: $0, scale: scale, output: .pool(pool)) }
    }

    private static func withJPEGBytes<Result>(of buffer: PixelBuffer, _ body: (UnsafeRawBufferPointer) throws -> Result)
        throws -> Result
    {
        guard PixelLayout(buffer.format) == .jpeg else {
            throw ViewfinderError(
                .unsupportedPixelFormat, "JPEG decoding needs a buffer of JPEG data, not \(buffer.format)")
        }
        return try buffer.withUnsafeBytes(ofPlane: 0, body)
    }

    @usableFromInline
    func header(ofBytes jpeg: UnsafeRawBufferPointer) throws -> JPEGHeader {
        try instances.withResource { try readHeader(jpeg, with: $0) }
    }

    @usableFromInline
    func decode(bytes jpeg: UnsafeRawBufferPointer, scale: Scale, output: OutputTarget) throws -> PixelBuffer? {
        let layout = try PixelLayout.required(output.format, operation: "JPEG decoding")
        guard layout.isOutput else {
            throw ViewfinderError(
                .unsupportedPixelFormat,
                "JPEG decoding produces NV12, NV21, I420, BGRA, RGBA, RGB24, BGR24 or GRAY8, not \(output.format)")
        }
        return try instances.withResource { instance in
            let header = try readHeader(jpeg, with: instance)
            try checkLimits(of: header)
            guard
                header.colorSpace == .yCbCr || header.colorSpace == .gray
                    || (header.colorSpace == .rgb && !layout.isYCbCr)
            else {
                throw ViewfinderError(
                    .unsupportedPixelFormat,
                    "cannot decode a JPEG image in the \(header.colorSpace) colour space to \(output.format)")
            }
            var size = header.dimensions(scaledBy: scale)
            // A pool of planar buffers at the padded size takes the decoder's planes as they are written.
            let padded = header.paddedDimensions(scaledBy: scale)
            if layout.isYCbCr, case .pool(let pool) = output, pool.width == padded.width, pool.height == padded.height {
                size = padded
            }
            return try output.makeBuffer(width: size.width, height: size.height, operation: "JPEG decoding") {
                destination in
                if layout.isYCbCr {
                    try decodePlanes(jpeg, header: header, scale: scale, into: destination, with: instance)
                } else {
                    try decodePixels(jpeg, into: destination, with: instance)
                }
            }
        }
    }

    /// Refuses an image larger than this decoder decodes: more than ``maximumPixelCount`` pixels, or a side longer
    /// than a pixel buffer can have.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` naming the declared size and the limit.
    package func checkLimits(of header: JPEGHeader) throws {
        let declared = header.dimensions
        guard declared.width * declared.height <= maximumPixelCount else {
            throw ViewfinderError(
                .malformedData,
                "the JPEG header declares \(declared) pixels, more than the decoder's limit of "
                    + "\(maximumPixelCount) pixels")
        }
        guard declared.width <= Self.maximumSide, declared.height <= Self.maximumSide else {
            throw ViewfinderError(
                .malformedData,
                "the JPEG header declares \(declared) pixels, a side longer than the \(Self.maximumSide) pixels "
                    + "a decoded picture can have")
        }
    }

    /// The longest side of a decoded picture: the longest a pixel buffer allocates.
    private static let maximumSide = 1 << 15

    private var flags: Int32 { TJFLAG_LIMITSCANS | (toleratesDamagedData ? 0 : TJFLAG_STOPONWARNING) }

    private func readHeader(_ jpeg: UnsafeRawBufferPointer, with instance: TurboJPEGHandle) throws -> JPEGHeader {
        guard let base = jpeg.baseAddress, !jpeg.isEmpty else {
            throw ViewfinderError(.malformedData, "the JPEG data is empty")
        }
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorSpace: Int32 = 0
        let status = tjDecompressHeader3(
            instance.handle, base.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count), &width, &height,
            &subsampling, &colorSpace)
        guard status == 0 else {
            throw ViewfinderError(.malformedData, "the data is not a readable JPEG image: \(instance.errorMessage)")
        }
        guard let chroma = JPEGChromaSubsampling(turboJPEG: subsampling),
            let space = JPEGHeader.ColorSpace(turboJPEG: colorSpace)
        else {
            throw ViewfinderError(.malformedData, "the JPEG image uses a chroma subsampling or colour space not known")
        }
        guard width > 0, height > 0 else {
            throw ViewfinderError(.malformedData, "the JPEG header declares an empty \(width)x\(height) image")
        }
        return JPEGHeader(
            dimensions: Dimensions(width: Int(width), height: Int(height)), chromaSubsampling: chroma,
            colorSpace: space)
    }

    /// Fails unless a TurboJPEG call succeeded, or only warned while damaged data is tolerated.
    private func check(_ status: Int32, _ instance: TurboJPEGHandle) throws {
        guard status != 0, !(toleratesDamagedData && instance.lastFailureWasWarning) else { return }
        throw ViewfinderError(.malformedData, "the JPEG image could not be decoded: \(instance.errorMessage)")
    }

    /// Decodes into packed RGB or greyscale pixels, straight into the destination.
    private func decodePixels(
        _ jpeg: UnsafeRawBufferPointer, into destination: ImagePlanes, with instance: TurboJPEGHandle
    ) throws {
        let pixelFormat: TJPF =
            switch destination.layout {
            case .bgra: TJPF_BGRA
            case .rgba: TJPF_RGBA
            case .rgb24: TJPF_RGB
            case .bgr24: TJPF_BGR
            default: TJPF_GRAY
            }
        let status = tjDecompress2(
            instance.handle, jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
            destination.y.base, destination.width, destination.y.stride, destination.height, pixelFormat.rawValue,
            flags)
        try check(status, instance)
    }

    /// Decodes into YCbCr planes: luma straight into the destination, chroma through scratch planes when the
    /// destination interleaves it or the image samples it other than 4:2:0.
    ///
    /// The destination is the picture's size at `scale`, or that size rounded up to whole chroma samples, whose
    /// extra row or column repeats the picture's last one.
    private func decodePlanes(
        _ jpeg: UnsafeRawBufferPointer, header: JPEGHeader, scale: Scale, into destination: ImagePlanes,
        with instance: TurboJPEGHandle
    ) throws {
        let (chromaWidth, chromaHeight) = (destination.chromaWidth, destination.chromaHeight)
        // TurboJPEG decodes at the largest scale whose picture fits the size it is given: the picture's own size
        // makes that `scale`, where a padded size could make it a larger one.
        let picture = header.dimensions(scaledBy: scale)
        let (width, height) = (Int32(picture.width), Int32(picture.height))
        if header.chromaSubsampling == .grayscale {
            try decompress(jpeg, width: width, height: height, luma: destination.y, chroma: nil, with: instance)
            let (byteWidth, rows, _) = destination.extent(ofPlane: 1)
            viewfinder_set_plane(destination.u.base, destination.u.stride, byteWidth, rows, 128)
            if destination.layout == .i420 {
                viewfinder_set_plane(destination.v.base, destination.v.stride, byteWidth, rows, 128)
            }
        } else {
            let subsampling = header.chromaSubsampling.turboJPEG
            // TurboJPEG writes luma padded to whole chroma samples, which may not fit the destination's plane.
            let paddedWidth = tjPlaneWidth(0, width, subsampling)
            let paddedHeight = tjPlaneHeight(0, height, subsampling)
            let lumaFits = paddedWidth == destination.width && paddedHeight == destination.height
            let luma =
                lumaFits ? destination.y : instance.lumaScratch.plane(bytesPerRow: paddedWidth, rows: paddedHeight)
            let decodedWidth = tjPlaneWidth(1, width, subsampling)
            let decodedHeight = tjPlaneHeight(1, height, subsampling)
            let isHalfSize = decodedWidth == chromaWidth && decodedHeight == chromaHeight
            var (cb, cr) =
                destination.layout == .i420 && isHalfSize
                ? (destination.u, destination.v)
                : instance.chromaScratch.chromaPlanes(bytesPerRow: decodedWidth, rows: decodedHeight)
            try decompress(jpeg, width: width, height: height, luma: luma, chroma: (cb, cr), with: instance)
            if lumaFits {
                // The padding TurboJPEG writes past the picture's blocks is not the picture's.
                luma.repeatEdges(
                    width: width, height: height, paddedWidth: destination.width, paddedHeight: destination.height)
            } else {
                viewfinder_copy_plane(
                    luma.base, luma.stride, destination.y.base, destination.y.stride, destination.width,
                    destination.height)
            }
            if !isHalfSize {
                let (resampledCb, resampledCr) =
                    destination.layout == .i420
                    ? (destination.u, destination.v)
                    : instance.resampledScratch.chromaPlanes(bytesPerRow: chromaWidth, rows: chromaHeight)
                let row = instance.rowScratch.plane(bytesPerRow: decodedWidth, rows: 1).base
                func resample(_ from: PlaneRef, _ to: PlaneRef) throws {
                    let done = viewfinder_resample_chroma(
                        from.base, from.stride, decodedWidth, decodedHeight, to.base, to.stride, chromaWidth,
                        chromaHeight, row)
                    guard done != 0 else {
                        throw ViewfinderError(
                            .malformedData,
                            "cannot resample \(decodedWidth)x\(decodedHeight) chroma to \(chromaWidth)x\(chromaHeight)")
                    }
                }
                try resample(cb, resampledCb)
                try resample(cr, resampledCr)
                (cb, cr) = (resampledCb, resampledCr)
            }
            switch destination.layout {
            case .nv12:
                viewfinder_merge_uv_plane(
                    cb.base, cb.stride, cr.base, cr.stride, destination.u.base, destination.u.stride,
                    chromaWidth, chromaHeight)
            case .nv21:
                viewfinder_merge_uv_plane(
                    cr.base, cr.stride, cb.base, cb.stride, destination.u.base, destination.u.stride,
                    chromaWidth, chromaHeight)
            default:
                break
            }
        }
        destination.mapInPlace(from: .full)
    }

    /// Runs TurboJPEG's planar decompression of a picture of `width` by `height` into a luma plane and, for colour
    /// images, two chroma planes.
    private func decompress(
        _ jpeg: UnsafeRawBufferPointer, width: Int32, height: Int32, luma: PlaneRef, chroma: (PlaneRef, PlaneRef)?,
        with instance: TurboJPEGHandle
    ) throws {
        var planes: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?) = (
            luma.base, chroma?.0.base, chroma?.1.base
        )
        var strides: (Int32, Int32, Int32) = (luma.stride, chroma?.0.stride ?? 0, chroma?.1.stride ?? 0)
        let status = withUnsafeMutableBytes(of: &planes) { planes in
            withUnsafeMutableBytes(of: &strides) { strides in
                tjDecompressToYUVPlanes(
                    instance.handle, jpeg.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                    planes.baseAddress!.assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self), width,
                    strides.baseAddress!.assumingMemoryBound(to: Int32.self), height, flags)
            }
        }
        try check(status, instance)
    }
}
