import Synchronization
import ViewfinderCore
import ViewfinderImaging

/// A device opened and set up for capture: the node, the format in use and, when frames are converted, the pool
/// they are converted into.
final class PreparedCapture: Sendable {
    let captureDevice: CaptureDevice
    /// The format the app asked for, or `nil` when the source chose one.
    let requestedFormat: VideoFormat?
    let device: V4L2Device
    /// The format the device captures in.
    let format: VideoFormat
    let layout: V4L2PixelFormat
    let conversion: FrameConversion?
    /// Whether the device faces the user, so its frames are mirrored.
    let isMirrored: Bool

    init(
        captureDevice: CaptureDevice, requestedFormat: VideoFormat?, device: V4L2Device, format: VideoFormat,
        layout: V4L2PixelFormat, conversion: FrameConversion?
    ) {
        self.captureDevice = captureDevice
        self.requestedFormat = requestedFormat
        self.device = device
        self.format = format
        self.layout = layout
        self.conversion = conversion
        isMirrored = captureDevice.position == .front
    }

    /// Whether this is the set-up that `selection` asks for.
    func matches(_ selection: CaptureSelection) -> Bool {
        captureDevice == selection.device && requestedFormat == selection.format
    }

    /// Wraps a lent buffer as a frame without copying; `nil` when the driver filled fewer bytes than the format needs.
    func frame(wrapping buffer: V4L2CapturedBuffer) -> Frame? {
        let pixelFormat = format.pixelFormat
        let (width, height) = (format.dimensions.width, format.dimensions.height)
        var planes: [PixelBuffer.Plane] = []
        if pixelFormat.isCompressed {
            guard buffer.bytesUsed > 0 else { return nil }
            planes = [
                .init(
                    baseAddress: buffer.base, bytesPerRow: buffer.bytesUsed, width: buffer.bytesUsed,
                    height: 1, byteCount: buffer.bytesUsed)
            ]
        } else {
            let firstRowBytes = pixelFormat.bytesPerRow(ofPlane: 0, width: width)
            let stride = max(Int(layout.bytesPerLine), firstRowBytes)
            var offset = 0
            for (index, plane) in pixelFormat.planes.enumerated() {
                let bytesPerRow = stride * pixelFormat.bytesPerRow(ofPlane: index, width: width) / firstRowBytes
                let rows = plane.rows(height: height)
                let byteCount = bytesPerRow * rows
                guard offset + byteCount <= buffer.bytesUsed else { return nil }
                planes.append(
                    .init(
                        baseAddress: buffer.base + offset, bytesPerRow: bytesPerRow,
                        width: plane.elementsPerRow(width: width), height: rows, byteCount: byteCount))
                offset += byteCount
            }
        }
        let lease = buffer.lease
        guard
            let pixelBuffer = try? PixelBuffer(
                width: width, height: height, format: pixelFormat, borrowing: planes, onRelease: { lease.release() })
        else { return nil }
        return Frame(
            pixelBuffer: pixelBuffer,
            timestamp: MonotonicTimestamp(nanoseconds: buffer.timestampNanoseconds),
            sequenceNumber: UInt64(buffer.sequence), isMirrored: isMirrored)
    }
}

/// What the app selected to capture from: a device, and a format or `nil` for one the source chooses.
struct CaptureSelection: Sendable {
    var device: CaptureDevice
    var format: VideoFormat?
}

/// One stream from a prepared device.
final class CaptureSession: Sendable {
    let prepared: PreparedCapture
    let stream: V4L2Stream

    init(prepared: PreparedCapture, stream: V4L2Stream) {
        self.prepared = prepared
        self.stream = stream
    }

    /// The counts of the stream and of its conversion.
    var statistics: CameraSourceStatistics {
        let counts = stream.statistics
        var statistics = CameraSourceStatistics()
        statistics.captured = counts.delivered
        statistics.droppedByDriver = counts.droppedByDriver
        statistics.droppedWhileBuffersHeld = counts.droppedForBackpressure
        statistics.corrupted = counts.corrupted
        statistics.droppedByConversion = prepared.conversion?.dropped ?? 0
        statistics.undecodable = prepared.conversion?.undecodable ?? 0
        return statistics
    }

    /// The frame to deliver for a lent buffer: the buffer itself, or its conversion; `nil` when it is dropped.
    ///
    /// A buffer that is not delivered, or that was converted, goes back to the driver before this returns.
    func frame(for buffer: V4L2CapturedBuffer) -> Frame? {
        guard let frame = prepared.frame(wrapping: buffer) else {
            buffer.lease.release()
            return nil
        }
        guard let conversion = prepared.conversion else { return frame }
        return conversion.convert(frame)
    }
}

/// Converts captured frames to NV12 full range into a bounded pool, dropping frames the pool has no room for.
///
/// Uncompressed frames go through a `PixelConverter`; JPEG frames (MJPEG webcams) through a `JPEGDecoder`, straight
/// into the pool, so neither allocates per frame. A JPEG frame that does not decode is dropped and counted.
final class FrameConversion: Sendable {
    /// How frames of the capture's format become NV12.
    private enum Method: Sendable {
        case pixels(PixelConverter)
        case jpeg(JPEGDecoder)
    }

    private let method: Method
    private let pool: PixelBufferPool
    private let droppedCount = Atomic<Int>(0)
    private let undecodableCount = Atomic<Int>(0)

    /// Whether frames in `pixelFormat` convert to NV12 full range.
    static func converts(_ pixelFormat: PixelFormat) -> Bool {
        pixelFormat == .jpeg || PixelConverter.canConvert(from: pixelFormat, to: .nv12FullRange)
    }

    /// Prepares conversion of frames in `format`, into a pool of `capacity` buffers.
    ///
    /// - Throws: ``ViewfinderError/Code/unsupportedPixelFormat`` when frames in `format` cannot be converted.
    init(format: VideoFormat, capacity: Int) throws(ViewfinderError) {
        guard Self.converts(format.pixelFormat) else {
            throw ViewfinderError(
                .unsupportedPixelFormat,
                "frames in \(format.pixelFormat) cannot be converted to NV12 full range; pick another format, such "
                    + "as YUYV, NV12 or MJPEG, or turn off CameraSource.Options.convertsToNV12FullRange")
        }
        // A webcam's damaged frame decodes as far as its data goes; one that does not decode at all is dropped.
        method =
            format.pixelFormat == .jpeg ? .jpeg(JPEGDecoder(toleratesDamagedData: true)) : .pixels(PixelConverter())
        do {
            pool = try PixelBufferPool(
                width: format.dimensions.width, height: format.dimensions.height, format: .nv12FullRange,
                capacity: max(capacity, 1))
        } catch let error as ViewfinderError {
            throw error
        } catch {
            throw ViewfinderError(.invalidArgument, "cannot convert frames of \(format): \(error)")
        }
    }

    /// Frames dropped because every pooled buffer was in use.
    var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// Compressed frames dropped because they did not decode to the capture's size.
    var undecodable: Int { undecodableCount.load(ordering: .relaxed) }

    /// The frame converted into a pooled buffer, with the same timestamp and sequence number; `nil` when the pool
    /// has no free buffer or the frame does not decode.
    func convert(_ frame: Frame) -> Frame? {
        let converted: PixelBuffer?
        do {
            switch method {
            case .pixels(let converter): converted = try converter.convert(frame.pixelBuffer, into: pool)
            case .jpeg(let decoder): converted = try decoder.decode(frame.pixelBuffer, into: pool)
            }
        } catch {
            undecodableCount.add(1, ordering: .relaxed)
            return nil
        }
        guard let converted else {
            droppedCount.add(1, ordering: .relaxed)
            return nil
        }
        return Frame(
            pixelBuffer: converted, timestamp: frame.timestamp, sequenceNumber: frame.sequenceNumber,
            orientation: frame.orientation, isMirrored: frame.isMirrored)
    }
}
