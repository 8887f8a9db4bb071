import CZXing
import ViewfinderCore
import ViewfinderImaging
import ViewfinderSystem

/// Reads barcodes from one frame or image at a time with zxing-cpp, on the calling thread.
///
/// The reader reads a frame's luminance plane where it lies: NV12, NV21, I420 and GRAY8 frames are read in place,
/// mirrored ones through a reversed pixel stride, without a copy. Other formats (YUYV, UYVY, the RGB orders and
/// JPEG) are first turned into gray in a buffer the reader keeps for the next frame of the same size. When a read
/// of the whole frame finds nothing, copies reduced to a half and to a quarter are read, which finds codes too large
/// or too blurred for the full size. ``BarcodeCapture`` reads a context's frames with one; use one directly for
/// still images:
///
/// ```swift
/// let reader = BarcodeReader(settings: .stillImage)
/// for barcode in try reader.read(image) {
///     print("\(barcode.symbology): \(barcode.text ?? "binary") at \(barcode.location)")
/// }
/// ```
///
/// A reader is safe to share between threads; concurrent reads each use their own memory.
public final class BarcodeReader: Sendable {
    /// What the reader looks for.
    public let settings: BarcodeCaptureSettings
    private let scratch: ReusableResources<ReaderScratch>
    private let converter = PixelConverter()
    private let decoder = JPEGDecoder(toleratesDamagedData: true)

    /// Creates a reader with `settings`.
    public init(settings: BarcodeCaptureSettings = BarcodeCaptureSettings()) {
        self.settings = settings
        scratch = ReusableResources { try ReaderScratch() }
    }

    /// Reads the codes in an upright, unmirrored image.
    ///
    /// - Throws: `ViewfinderError` with code `unsupportedPixelFormat` for a compressed format other than JPEG,
    ///   and `malformedData` for a JPEG image that does not decode or an image zxing-cpp fails on.
    ///   when zxing-cpp fails.
    public func read(_ image: PixelBuffer) throws -> [Barcode] {
        try read(Frame(pixelBuffer: image, timestamp: MonotonicTimestamp(nanoseconds: 0), sequenceNumber: 0))
    }

    /// Reads the codes in a frame; their corners are in the frame as it is shown (see ``Quadrilateral``).
    ///
    /// - Throws: As ``read(_:)-(PixelBuffer)``.
    public func read(_ frame: Frame) throws -> [Barcode] {
        let formats = settings.zxingFormats
        guard formats != 0 else { return [] }
        var options = vf_zxing_options(
            formats: formats, try_harder: settings.tryHarder ? 1 : 0, try_rotate: 1,
            maximum_count: Int32(clamping: min(max(settings.maximumCodesPerFrame, 1), 255)), try_reduced: 1)
        return try scratch.withResource { scratch in
            let luminance = try luminance(of: frame.pixelBuffer, scratch: scratch)
            let count = luminance.withUnsafePlanes { planes in
                let plane = planes[0]
                let width = Int32(luminance.width)
                // A mirrored frame is read from the right edge of each row, which turns its codes the right way.
                let start = frame.isMirrored ? plane.baseAddress + luminance.width - 1 : plane.baseAddress
                return vf_zxing_read(
                    scratch.reader, start.assumingMemoryBound(to: UInt8.self), width, Int32(luminance.height),
                    Int32(plane.bytesPerRow), frame.isMirrored ? -1 : 1, &options)
            }
            guard count >= 0 else {
                throw ViewfinderError(
                    .malformedData,
                    "zxing-cpp could not read the frame: \(String(cString: vf_zxing_reader_error(scratch.reader)))")
            }
            let shown = Upright(frame: frame)
            return (0..<Int(count)).compactMap { index in
                scratch.barcode(at: index, frameSequenceNumber: frame.sequenceNumber, upright: shown)
            }
        }
    }

    /// The frame's luminance: its own first plane for formats that have one, else a gray copy in the scratch's pool.
    private func luminance(of image: PixelBuffer, scratch: ReaderScratch) throws -> PixelBuffer {
        switch image.format {
        case .nv12FullRange, .nv12VideoRange, .nv21, .i420, .gray8:
            return image
        case .jpeg:
            let header = try decoder.header(of: image)
            try decoder.checkLimits(of: header)
            let size = header.dimensions
            let pool = try scratch.grayPool(width: size.width, height: size.height)
            guard let gray = try decoder.decode(image, into: pool) else {
                throw ViewfinderError(.notAvailable, "the reader's gray buffer is still in use")
            }
            return gray
        default:
            guard PixelConverter.canConvert(from: image.format, to: .gray8) else {
                throw ViewfinderError(
                    .unsupportedPixelFormat,
                    "barcodes are read from YCbCr, RGB, gray or JPEG frames, not \(image.format)")
            }
            let pool = try scratch.grayPool(width: image.width, height: image.height)
            guard let gray = try converter.convert(image, into: pool) else {
                throw ViewfinderError(.notAvailable, "the reader's gray buffer is still in use")
            }
            return gray
        }
    }
}

/// Maps points of a frame's pixels to the frame as it is shown: turned upright and, when mirrored, flipped back, as
/// `PixelConverter.makeUpright(_:)` shows it.
struct Upright {
    let width: Int
    let height: Int
    let orientation: Frame.Orientation
    let isMirrored: Bool

    init(frame: Frame) {
        width = frame.pixelBuffer.width
        height = frame.pixelBuffer.height
        orientation = frame.orientation
        isMirrored = frame.isMirrored
    }

    /// The point where pixel (x, y) is shown.
    func point(x: Int, y: Int) -> ImagePoint {
        let turned =
            switch orientation {
            case .up: ImagePoint(x: x, y: y)
            case .down: ImagePoint(x: width - 1 - x, y: height - 1 - y)
            case .left: ImagePoint(x: height - 1 - y, y: x)
            case .right: ImagePoint(x: y, y: width - 1 - x)
            }
        guard isMirrored else { return turned }
        let shownWidth = orientation == .left || orientation == .right ? height : width
        return ImagePoint(x: shownWidth - 1 - turned.x, y: turned.y)
    }
}

/// A zxing-cpp reader and a gray buffer for frames without a luminance plane, used by one read at a time.
final class ReaderScratch: @unchecked Sendable {
    // Unchecked: a scratch moves between threads only through ReusableResources, one user at a time.
    let reader: OpaquePointer
    private var pool: PixelBufferPool?

    init() throws {
        guard let reader = vf_zxing_reader_create() else {
            throw ViewfinderError(.notAvailable, "no memory for a barcode reader")
        }
        self.reader = reader
    }

    deinit {
        vf_zxing_reader_destroy(reader)
    }

    /// A one-buffer pool of gray images of the size, kept while frames keep that size.
    func grayPool(width: Int, height: Int) throws -> PixelBufferPool {
        if let pool, pool.width == width, pool.height == height { return pool }
        let made = try PixelBufferPool(width: width, height: height, format: .gray8, capacity: 1)
        pool = made
        return made
    }

    /// Code `index` of the last read.
    func barcode(at index: Int, frameSequenceNumber: UInt64, upright: Upright) -> Barcode? {
        let index = Int32(index)
        guard let symbology = Symbology(zxingFormat: vf_zxing_result_format(reader, index)) else { return nil }
        var length = 0
        let textStart = vf_zxing_result_text(reader, index, &length)
        let text = textStart.flatMap { start in
            String(
                validating: UnsafeRawBufferPointer(start: start, count: length).bindMemory(to: UInt8.self),
                as: UTF8.self)
        }
        let bytesStart = vf_zxing_result_bytes(reader, index, &length)
        let rawBytes = bytesStart.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
        var corners = (Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0), Int32(0))
        withUnsafeMutableBytes(of: &corners) {
            vf_zxing_result_corners(reader, index, $0.baseAddress!.assumingMemoryBound(to: Int32.self))
        }
        let location = Quadrilateral(
            topLeft: upright.point(x: Int(corners.0), y: Int(corners.1)),
            topRight: upright.point(x: Int(corners.2), y: Int(corners.3)),
            bottomRight: upright.point(x: Int(corners.4), y: Int(corners.5)),
            bottomLeft: upright.point(x: Int(corners.6), y: Int(corners.7)))
        return Barcode(
            symbology: symbology, text: text, rawBytes: rawBytes, location: location,
            frameSequenceNumber: frameSequenceNumber)
    }
}
