import ViewfinderCore
import ViewfinderImaging
import ViewfinderSystem

/// JPEG images decoded for a ``VideoOutput``, the way that costs the machine less CPU, measured on the first images of
/// each size.
///
/// There are two ways for a YUYV output. In the JPEG transform: decoded at the largest JPEG scale that fits the
/// output (libjpeg-turbo enlarges up to 2/1 in its inverse DCT), and shown at that size framed in black. Or while
/// packing: decoded at full size, or the smallest reduction that fits, to full-range I420, and scaled to fit as it is
/// packed. Which costs less depends on the machine: with SSE2 the second, several times over (a 640x424 live view
/// frame into 1280x720: 0.49 ms against 1.49 ms); where SIMD is slow, such as under emulation, the first, as
/// libjpeg-turbo's enlarging transforms are plain C. So the first images of a size are decoded each way in turn, each
/// also prepared and packed into memory of its own to time the whole of it on the caller's thread, and the way with
/// the lower median is kept, unless the output's configuration pins a way. Other outputs decode in the JPEG
/// transform. Images come from one caller at a time, as ``VideoOutput/show(jpeg:)`` asks.
final class VideoOutputJPEGFrames: Sendable {
    /// A way to decode and fit an image.
    typealias Way = VideoOutput.JPEGDecoding

    /// Timed images per way, after one that warms its pools up.
    static let samplesPerWay = 3
    /// The largest side an image may keep, decoded, for outputs too small to set the limit: twice the output's own.
    static let smallestLimit = 1024

    private let frames: VideoOutputFrames
    private let decoder = JPEGDecoder(toleratesDamagedData: true)
    private let ways: [Way]
    private let plan = Locked<Plan?>(nil)

    /// How images of one size are decoded: a pool and scale per way, and the measurements until a way is chosen.
    private struct Plan {
        let imageSize: Dimensions
        var decoding: [Way: (scale: JPEGDecoder.Scale, pool: PixelBufferPool)]
        var costs: [Way: [Duration]]
        var chosen: Way?
        /// Frames and a driver-sized buffer to time each way into, until a way is chosen.
        var measuring: Measuring?
    }

    /// JPEG images for `frames`, decoded `way` (falling back to the transform where that way cannot be), or, when
    /// `nil`, the way that costs less.
    init(frames: VideoOutputFrames, way: Way? = nil) {
        self.frames = frames
        let possible: [Way] =
            PixelConverter.canScaleWhilePacking(.i420FullRange, into: frames.format)
            ? [.inTheTransform, .whilePacking] : [.inTheTransform]
        ways = way.map { possible.contains($0) ? [$0] : [.inTheTransform] } ?? possible
    }

    /// The way kept for images of the newest size, once measured.
    var chosenWay: Way? {
        plan.withLock { $0?.chosen }
    }

    /// Decodes `jpeg` and makes it the output's newest frame; an image that finds every buffer in use is dropped.
    ///
    /// - Throws: `ViewfinderError` with code `malformedData` for data that is not a JPEG image, and `invalidArgument`
    ///   for an image more than twice the output's size (and over 1024 pixels) even at 1/8.
    func show(_ jpeg: some Collection<UInt8>) throws {
        let header = try decoder.header(of: jpeg)
        var current: Plan
        if let existing = plan.withLock({ $0 }), existing.imageSize == header.dimensions {
            current = existing
        } else {
            current = try makePlan(header)
        }
        let way = current.chosen ?? nextWay(current)
        guard let decoding = current.decoding[way] else { return }
        guard let measuring = current.measuring, current.chosen == nil else {
            guard let picture = try decode(jpeg, decoding) else { return }
            return try frames.prepare(picture, enlarging: way == .whilePacking)
        }
        let start = threadCPUTime()
        guard let picture = try decode(jpeg, decoding) else { return }
        try measuring.show(picture, way: way)
        let cost = threadCPUTime() - start
        current.costs[way, default: []].append(cost)
        current.chosen = Self.choice(current.costs)
        if current.chosen != nil { current.measuring = nil }
        let updated = current
        plan.withLock { $0 = updated }
        try frames.prepare(picture, enlarging: way == .whilePacking)
    }

    /// The way to measure next: the one with the fewest images so far.
    private func nextWay(_ plan: Plan) -> Way {
        ways.min { plan.costs[$0, default: []].count < plan.costs[$1, default: []].count } ?? .inTheTransform
    }

    /// The way with the lower median cost, once each has its samples (the first of each, warming up, left out).
    static func choice(_ costs: [Way: [Duration]]) -> Way? {
        let medians = costs.mapValues { samples -> Duration? in
            let timed = samples.dropFirst().sorted()
            return timed.count >= samplesPerWay ? timed[timed.count / 2] : nil
        }
        guard let transform = medians[.inTheTransform] ?? nil else { return nil }
        guard costs[.whilePacking] != nil else { return .inTheTransform }
        guard let packing = medians[.whilePacking] ?? nil else { return nil }
        return packing < transform ? .whilePacking : .inTheTransform
    }

    /// A plan for images like `header`: a pool and scale for each way, measuring when there is a choice.
    private func makePlan(_ header: JPEGHeader) throws -> Plan {
        var decoding: [Way: (scale: JPEGDecoder.Scale, pool: PixelBufferPool)] = [:]
        for way in ways {
            let scale =
                way == .inTheTransform
                ? JPEGDecoder.Scale.largest(for: header.dimensions, fittingIn: frames.size)
                : JPEGDecoder.Scale.fitting(header.dimensions, in: frames.size)
            // The size the decoder writes its planes at (a row or column more for an odd side of a 4:2:0 image), so
            // they are decoded in place, when that still fits.
            let padded = header.paddedDimensions(scaledBy: scale)
            let size =
                padded.width <= frames.size.width && padded.height <= frames.size.height
                ? padded : header.dimensions(scaledBy: scale)
            // An image that stays far larger than the output even at 1/8 (a damaged or hostile header, up to
            // 65535x65535) is refused before any memory is set aside for it.
            let limit = Dimensions(
                width: max(2 * frames.size.width, Self.smallestLimit),
                height: max(2 * frames.size.height, Self.smallestLimit))
            guard size.width <= limit.width, size.height <= limit.height else {
                throw ViewfinderError(
                    .invalidArgument,
                    "a \(header.dimensions) JPEG image is too large for a \(frames.size) output, even decoded at "
                        + "\(scale): at most \(limit) after scaling")
            }
            // Room for the newest frame, the one measured, and one being decoded.
            let pool = try PixelBufferPool(width: size.width, height: size.height, format: .i420FullRange, capacity: 4)
            decoding[way] = (scale, pool)
        }
        let measured = ways.count > 1
        let made = Plan(
            imageSize: header.dimensions, decoding: decoding, costs: [:], chosen: measured ? nil : ways.first,
            measuring: measured ? try Measuring(like: frames) : nil)
        plan.withLock { $0 = made }
        return made
    }

    private func decode(
        _ jpeg: some Collection<UInt8>, _ decoding: (scale: JPEGDecoder.Scale, pool: PixelBufferPool)
    ) throws -> PixelBuffer? {
        try decoder.decode(jpeg, scale: decoding.scale, into: decoding.pool)
    }
}

/// Frames like an output's, and memory shaped like one of its driver buffers, to time the preparing and packing of a
/// picture without touching the output.
///
/// Unchecked `Sendable`: used only by the one caller that shows images, one image at a time.
private final class Measuring: @unchecked Sendable {
    private let frames: [Bool: VideoOutputFrames]
    private let bytesPerRow: Int
    private let length: Int
    private let memory: UnsafeMutableRawPointer

    init(like output: VideoOutputFrames) throws {
        frames = [
            false: try VideoOutputFrames(size: output.size, format: output.format),
            true: try VideoOutputFrames(size: output.size, format: output.format),
        ]
        bytesPerRow = output.format.bytesPerRow(ofPlane: 0, width: output.size.width)
        length = output.byteCount(bytesPerRow: bytesPerRow)
        memory = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 64)
    }

    deinit {
        memory.deallocate()
    }

    /// Prepares `picture` as `way` shows it and packs it into the memory.
    func show(_ picture: PixelBuffer, way: VideoOutputJPEGFrames.Way) throws {
        guard let frames = frames[way == .whilePacking] else { return }
        try frames.prepare(picture, enlarging: way == .whilePacking)
        guard let frame = frames.newest.frame else { return }
        frames.copy(frame, to: memory, bytesPerRow: bytesPerRow, length: length)
    }
}
