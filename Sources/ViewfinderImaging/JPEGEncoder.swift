import CLibYUV
import CTurboJPEG
import ViewfinderCore
import ViewfinderSystem

/// Encodes pixel buffers as JPEG images with libjpeg-turbo, for captures, live view and saved snapshots.
///
/// An encoder keeps its TurboJPEG instance, scratch planes and output buffer between images, so encoding a steady
/// stream with ``encode(_:quality:_:)`` allocates nothing of its own per frame. It is safe to share between
/// threads; concurrent encodes each get their own instance.
///
/// ```swift
/// let encoder = JPEGEncoder()
/// let jpeg: [UInt8] = try encoder.encode(frame.pixelBuffer, quality: 90)
/// try encoder.encode(frame.pixelBuffer, quality: 75) { bytes in socket.send(bytes) }   // no copy
/// ```
///
/// It encodes NV12 or I420 (either range), NV21, YUYV, UYVY, BGRA, RGBA, RGB24, BGR24 and GRAY8. YCbCr buffers keep
/// their chroma resolution (4:2:0, or 4:2:2 for YUYV and UYVY) and are brought to the full range JPEG uses;
/// RGB buffers are subsampled as ``chromaSubsampling`` says.
public final class JPEGEncoder: Sendable {
    /// The chroma subsampling of images encoded from RGB buffers.
    public let chromaSubsampling: JPEGChromaSubsampling
    private let instances: ReusableResources<TurboJPEGHandle>

    /// Creates an encoder.
    ///
    /// - Parameter chromaSubsampling: The chroma subsampling for images encoded from RGB buffers; 4:2:0 makes the
    ///   smallest files, 4:4:4 keeps the sharpest colour edges.
    public init(chromaSubsampling: JPEGChromaSubsampling = .yuv420) {
        self.chromaSubsampling = chromaSubsampling
        self.instances = ReusableResources { try TurboJPEGHandle(.compressor) }
    }

    /// Encodes an image and returns the JPEG bytes.
    ///
    /// - Parameters:
    ///   - image: The image; any uncompressed format listed in the type's overview.
    ///   - quality: From 1 (smallest) to 100 (best).
    /// - Throws: `ViewfinderError/Code/invalidArgument` for a quality outside 1...100,
    ///   `ViewfinderError/Code/unsupportedPixelFormat` for other formats.
    public func encode(_ image: PixelBuffer, quality: Int = 85) throws -> [UInt8] {
        try encode(image, quality: quality) { Array($0) }
    }

    /// Encodes an image and calls `body` with the JPEG bytes, which are valid only inside `body`.
    ///
    /// The bytes live in the encoder's own buffer, which the next encode reuses: nothing is allocated per image.
    ///
    /// - Throws: As ``encode(_:quality:)``, and whatever `body` throws.
    public func encode<Result>(
        _ image: PixelBuffer, quality: Int = 85, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) throws -> Result {
        try encode(image, quality: quality, fittingInto: nil, body)
    }

    /// Encodes a reduced copy of an image that fits in `bounds`, keeping its aspect ratio: a thumbnail.
    ///
    /// An image that already fits is encoded at its own size. NV12, NV21, I420, BGRA, RGBA, RGB24, BGR24 and GRAY8
    /// images can be reduced; convert YUYV and UYVY first.
    ///
    /// - Throws: As ``encode(_:quality:)``, and `ViewfinderError` with code `unsupportedPixelFormat` for YUYV and
    ///   UYVY images that need reducing.
    public func encodeThumbnail(
        of image: PixelBuffer, fittingInto bounds: Dimensions = Dimensions(width: 160, height: 120), quality: Int = 85
    ) throws -> [UInt8] {
        try encode(image, quality: quality, fittingInto: bounds) { Array($0) }
    }

    private func encode<Result>(
        _ image: PixelBuffer, quality: Int, fittingInto bounds: Dimensions?,
        _ body: (UnsafeRawBufferPointer) throws -> Result
    ) throws -> Result {
        guard (1...100).contains(quality) else {
            throw ViewfinderError(.invalidArgument, "JPEG quality must be from 1 to 100, not \(quality)")
        }
        let size = Dimensions(width: image.width, height: image.height)
        let target = bounds.map { size.fitted(into: $0) } ?? size
        return try image.withUnsafePlanes { planes in
            let source = try ImagePlanes(reading: image, planes: planes, operation: "JPEG encoding")
            return try instances.withResource { instance in
                guard target != size else {
                    return try body(compress(source, quality: Int32(quality), with: instance))
                }
                guard source.layout.isOutput else {
                    throw ViewfinderError(
                        .unsupportedPixelFormat,
                        "cannot reduce \(image.format) for a thumbnail; convert it to NV12 first")
                }
                let reduced = instance.thumbnailScratch.image(
                    width: Int32(target.width), height: Int32(target.height), layout: source.layout,
                    range: source.range)
                Geometry.scale(source, to: reduced, filter: kFilterBox)
                return try body(compress(reduced, quality: Int32(quality), with: instance))
            }
        }
    }

    /// Compresses an image into the instance's output buffer.
    private func compress(_ source: ImagePlanes, quality: Int32, with instance: TurboJPEGHandle) throws
        -> UnsafeRawBufferPointer
    {
        let pixelFormat: TJPF
        switch source.layout {
        case .bgra: pixelFormat = TJPF_BGRA
        case .rgba: pixelFormat = TJPF_RGBA
        case .rgb24: pixelFormat = TJPF_RGB
        case .bgr24: pixelFormat = TJPF_BGR
        case .otherRGB32(let order): pixelFormat = order.turboJPEG
        case .gray: pixelFormat = TJPF_GRAY
        case .nv12, .nv21, .i420, .yuyv, .uyvy: return try compressPlanes(source, quality: quality, with: instance)
        case .jpeg:
            throw ViewfinderError(.unsupportedPixelFormat, "the image is already JPEG data; use its bytes as they are")
        }
        let subsampling = source.layout == .gray ? JPEGChromaSubsampling.grayscale : chromaSubsampling
        var (output, size) = try outputBuffer(source, subsampling: subsampling, with: instance)
        let status = tjCompress2(
            instance.handle, source.y.base, source.width, source.y.stride, source.height, pixelFormat.rawValue,
            &output, &size, subsampling.turboJPEG, quality, TJFLAG_NOREALLOC)
        return try result(status, output, size, with: instance)
    }

    /// Compresses YCbCr planes: brings them to full-range planar form, in scratch planes where needed, and hands them
    /// to TurboJPEG without a colour conversion.
    private func compressPlanes(_ source: ImagePlanes, quality: Int32, with instance: TurboJPEGHandle) throws
        -> UnsafeRawBufferPointer
    {
        let isPacked = source.layout == .yuyv || source.layout == .uyvy
        let subsampling: JPEGChromaSubsampling = isPacked ? .yuv422 : .yuv420
        let chromaWidth = source.chromaWidth
        let chromaRows = isPacked ? source.height : source.chromaHeight
        let video = source.range == .video
        // TurboJPEG reads luma padded to whole chroma samples: copy it when the source's plane is not padded.
        let paddedWidth = tjPlaneWidth(0, source.width, subsampling.turboJPEG)
        let paddedHeight = tjPlaneHeight(0, source.height, subsampling.turboJPEG)
        let isPadded = paddedWidth != source.width || paddedHeight != source.height
        var luma = source.y
        if isPacked || video || isPadded {
            luma = instance.lumaScratch.plane(bytesPerRow: paddedWidth, rows: paddedHeight)
        }
        var (cb, cr) = instance.chromaScratch.chromaPlanes(bytesPerRow: chromaWidth, rows: chromaRows)
        switch source.layout {
        case .yuyv:
            YUY2ToI422(
                source.y.base, source.y.stride, luma.base, luma.stride, cb.base, cb.stride, cr.base, cr.stride,
                source.width, source.height)
        case .uyvy:
            UYVYToI422(
                source.y.base, source.y.stride, luma.base, luma.stride, cb.base, cb.stride, cr.base, cr.stride,
                source.width, source.height)
        case .nv12:
            SplitUVPlane(
                source.u.base, source.u.stride, cb.base, cb.stride, cr.base, cr.stride, chromaWidth, chromaRows)
        case .nv21:
            SplitUVPlane(
                source.u.base, source.u.stride, cr.base, cr.stride, cb.base, cb.stride, chromaWidth, chromaRows)
        default:
            if !video { (cb, cr) = (source.u, source.v) }
        }
        let planar = source.layout == .i420
        if video {
            RangeMap.lumaToFull.apply(
                from: isPacked ? luma : source.y, to: luma, byteWidth: source.width, rows: source.height)
            RangeMap.chromaToFull.apply(from: planar ? source.u : cb, to: cb, byteWidth: chromaWidth, rows: chromaRows)
            RangeMap.chromaToFull.apply(from: planar ? source.v : cr, to: cr, byteWidth: chromaWidth, rows: chromaRows)
        } else if isPadded && !isPacked {
            CopyPlane(source.y.base, source.y.stride, luma.base, luma.stride, source.width, source.height)
        }
        if isPadded {
            luma.repeatEdges(
                width: source.width, height: source.height, paddedWidth: paddedWidth, paddedHeight: paddedHeight)
        }
        var (output, size) = try outputBuffer(source, subsampling: subsampling, with: instance)
        var planes: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) = (
            UnsafePointer(luma.base), UnsafePointer(cb.base), UnsafePointer(cr.base)
        )
        var strides: (Int32, Int32, Int32) = (luma.stride, cb.stride, cr.stride)
        let status = withUnsafeMutableBytes(of: &planes) { planes in
            withUnsafeMutableBytes(of: &strides) { strides in
                tjCompressFromYUVPlanes(
                    instance.handle, planes.baseAddress!.assumingMemoryBound(to: UnsafePointer<UInt8>?.self),
                    source.width, strides.baseAddress!.assumingMemoryBound(to: Int32.self), source.height,
                    subsampling.turboJPEG, &output, &size, quality, TJFLAG_NOREALLOC)
            }
        }
        return try result(status, output, size, with: instance)
    }

    /// The instance's output buffer, grown to hold the largest JPEG image `source` can make.
    private func outputBuffer(
        _ source: ImagePlanes, subsampling: JPEGChromaSubsampling, with instance: TurboJPEGHandle
    ) throws -> (UnsafeMutablePointer<UInt8>?, UInt) {
        let bound = tjBufSize(source.width, source.height, subsampling.turboJPEG)
        guard bound != UInt.max, bound <= UInt(Int32.max) else {
            throw ViewfinderError(.invalidArgument, "a \(source.width)x\(source.height) image is too large for JPEG")
        }
        return (try instance.outputBuffer(byteCount: Int(bound)), bound)
    }

    private func result(
        _ status: Int32, _ output: UnsafeMutablePointer<UInt8>?, _ size: UInt, with instance: TurboJPEGHandle
    ) throws -> UnsafeRawBufferPointer {
        guard status == 0, let output else {
            throw ViewfinderError(.invalidArgument, "the image could not be encoded as JPEG: \(instance.errorMessage)")
        }
        return UnsafeRawBufferPointer(start: output, count: Int(size))
    }
}
