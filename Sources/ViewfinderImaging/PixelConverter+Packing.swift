import CViewfinderPixels
import ViewfinderCore

extension PixelConverter {
    /// The largest side ``scaleAndPack(_:to:into:bytesPerRow:format:)`` writes, in pixels.
    package static let largestPackedSide = 16384

    /// Whether ``scaleAndPack(_:to:into:bytesPerRow:format:)`` takes buffers of `source` format into `format`: I420
    /// into YUYV of the same range or a narrower one (full-range samples into video range).
    package static func canScaleWhilePacking(_ source: PixelFormat, into format: PixelFormat) -> Bool {
        guard PixelLayout(source) == .i420, PixelLayout(format) == .yuyv else { return false }
        return !(SampleRange(source) == .video && SampleRange(format) == .full)
    }

    /// Scales an I420 buffer to `size` and packs it as YUYV into memory the caller owns, such as a driver's buffer,
    /// mapping its samples to the format's range, in one pass over the output.
    ///
    /// Bilinear, positions in 128ths of a sample: each source row is scaled across once, and each output row blends
    /// the two source rows about it. Meant for enlarging and for reductions down to half the size, as a video output fits frames to its
    /// own size; larger reductions skip source pixels (scale with ``ScalingFilter/box`` first).
    ///
    /// - Throws: `ViewfinderError` with code `unsupportedPixelFormat` when ``canScaleWhilePacking(_:into:)`` says
    ///   no, and `invalidArgument` when `size` is empty or has a side over ``largestPackedSide``, or a row of
    ///   `bytesPerRow` bytes cannot hold it.
    package func scaleAndPack(
        _ source: PixelBuffer, to size: Dimensions, into address: UnsafeMutableRawPointer, bytesPerRow: Int,
        format: PixelFormat
    ) throws {
        guard Self.canScaleWhilePacking(source.format, into: format) else {
            throw ViewfinderError(
                .unsupportedPixelFormat,
                "scaling while packing takes I420 into YUYV of the same or video range, not \(source.format) into "
                    + "\(format)")
        }
        let largest = Self.largestPackedSide
        guard size.width > 0, size.height > 0, size.width <= largest, size.height <= largest else {
            throw ViewfinderError(
                .invalidArgument, "cannot pack a \(size.width)x\(size.height) picture: each side from 1 to \(largest)")
        }
        // Each pair of pixels is four bytes, a last odd pixel's too.
        let rowBytes = 4 * ((size.width + 1) / 2)
        guard bytesPerRow >= rowBytes, bytesPerRow <= Int(Int32.max) else {
            throw ViewfinderError(
                .invalidArgument,
                "a row of \(size.width) YUYV pixels takes \(rowBytes) bytes; rows of \(bytesPerRow) bytes do not fit")
        }
        let range = (SampleRange(source.format), SampleRange(format))
        let luma = RangeMap.luma(from: range.0, to: range.1) ?? .identity
        let chroma = RangeMap.chroma(from: range.0, to: range.1) ?? .identity
        let scratchBytes = viewfinder_scale_pack_scratch_bytes(Int32(size.width), Int32(size.height))
        try source.withUnsafePlanes { planes in
            let s = try ImagePlanes(reading: source, planes: planes, operation: "packing")
            try scratch.withResource { scratch in
                let memory = scratch.first.plane(bytesPerRow: Int32(scratchBytes), rows: 1)
                _ = viewfinder_scale_pack_yuyv_mapped(
                    s.y.base, s.y.stride, s.u.base, s.u.stride, s.v.base, s.v.stride, Int32(s.width),
                    Int32(s.height), address.assumingMemoryBound(to: UInt8.self), Int32(bytesPerRow),
                    Int32(size.width), Int32(size.height), luma.multiplier, luma.offset, chroma.multiplier,
                    chroma.offset, memory.base)
            }
        }
    }
}
