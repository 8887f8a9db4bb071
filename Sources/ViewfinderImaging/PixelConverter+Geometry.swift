import CLibYUV
import ViewfinderCore

extension PixelConverter {
    /// How scaling computes each output pixel, from fastest to best looking.
    public enum ScalingFilter: Hashable, Sendable {
        /// The nearest source pixel.
        case nearest
        /// Interpolation between the nearest source pixels.
        case bilinear
        /// The average of the source pixels each output pixel covers; the best for large reductions.
        case box

        var mode: FilterMode {
            switch self {
            case .nearest: kFilterNone
            case .bilinear: kFilterBilinear
            case .box: kFilterBox
            }
        }
    }

    /// A clockwise rotation by a multiple of 90°.
    public enum Rotation: Hashable, Sendable {
        /// No rotation.
        case none
        /// A quarter turn clockwise: the left edge becomes the top.
        case clockwise90
        /// A half turn.
        case clockwise180
        /// Three quarter turns clockwise, or one counter-clockwise: the right edge becomes the top.
        case clockwise270

        /// The rotation that shows a frame of `orientation` upright.
        public init(showingUpright orientation: Frame.Orientation) {
            switch orientation {
            case .up: self = .none
            case .left: self = .clockwise90
            case .down: self = .clockwise180
            case .right: self = .clockwise270
            }
        }

        var quarterTurns: Int {
            switch self {
            case .none: 0
            case .clockwise90: 1
            case .clockwise180: 2
            case .clockwise270: 3
            }
        }

        /// The size of an image of `size` after the rotation.
        public func rotated(_ size: Dimensions) -> Dimensions {
            quarterTurns.isMultiple(of: 2) ? size : Dimensions(width: size.height, height: size.width)
        }
    }

    /// Whether buffers of `format` scale and rotate: NV12, NV21, I420, BGRA, RGBA, RGB24, BGR24 and GRAY8.
    public static func canScale(_ format: PixelFormat) -> Bool {
        PixelLayout(format)?.isOutput == true
    }

    /// Scales a buffer to `size` into a new buffer of its format.
    ///
    /// NV12, NV21, I420, BGRA, RGBA, RGB24, BGR24 and GRAY8 scale; convert YUYV and UYVY first.
    ///
    /// - Throws: `ViewfinderError` with code `unsupportedPixelFormat` for other formats, and `invalidArgument` for
    ///   an empty or oversized size.
    public func scale(_ source: PixelBuffer, to size: Dimensions, filter: ScalingFilter = .box) throws -> PixelBuffer {
        try scale(source, size: size, filter: filter, output: .newBuffer(source.format))!
    }

    /// Scales a buffer to the size of `pool`'s buffers, into one of them; `nil` when every buffer is in use.
    ///
    /// - Throws: As ``scale(_:to:filter:)``, and `invalidArgument` when the pool's format is not the source's.
    public func scale(_ source: PixelBuffer, into pool: PixelBufferPool, filter: ScalingFilter = .box) throws
        -> PixelBuffer?
    {
        try scale(
            source, size: Dimensions(width: pool.width, height: pool.height), filter: filter, output: .pool(pool))
    }

    /// Rotates a buffer clockwise and, when `mirrored`, then flips it left to right, into a new buffer.
    ///
    /// NV12, NV21, I420, BGRA, RGBA, RGB24, BGR24 and GRAY8 rotate; convert YUYV and UYVY first. A quarter turn
    /// swaps the width and height.
    ///
    /// - Throws: `ViewfinderError` with code `unsupportedPixelFormat` for other formats.
    public func rotate(_ source: PixelBuffer, by rotation: Rotation, mirrored: Bool = false) throws -> PixelBuffer {
        try rotate(source, by: rotation, mirrored: mirrored, output: .newBuffer(source.format))!
    }

    /// Rotates, and optionally mirrors, a buffer into one from `pool`; `nil` when every buffer is in use.
    ///
    /// The pool's buffers must have the rotated size (``Rotation/rotated(_:)``) and the source's format.
    ///
    /// - Throws: As ``rotate(_:by:mirrored:)``, and `invalidArgument` when the pool does not fit the result.
    public func rotate(_ source: PixelBuffer, by rotation: Rotation, mirrored: Bool = false, into pool: PixelBufferPool)
        throws -> PixelBuffer?
    {
        try rotate(source, by: rotation, mirrored: mirrored, output: .pool(pool))
    }

    /// Returns the frame rotated as its orientation says and flipped back when it is mirrored, in a new buffer.
    ///
    /// The result is upright and not mirrored, with the frame's timestamp and sequence number. A frame that is
    /// already upright and not mirrored comes back unchanged, without a copy. The mirrored flag describes the
    /// frame as it is shown: the flip applies after the rotation.
    ///
    /// - Throws: As ``rotate(_:by:mirrored:)``.
    public func makeUpright(_ frame: Frame) throws -> Frame {
        try makeUpright(frame, output: .newBuffer(frame.pixelBuffer.format))!
    }

    /// Returns the frame upright and not mirrored, in a buffer from `pool`; `nil` when every buffer is in use.
    ///
    /// - Throws: As ``rotate(_:by:mirrored:into:)``.
    public func makeUpright(_ frame: Frame, into pool: PixelBufferPool) throws -> Frame? {
        try makeUpright(frame, output: .pool(pool))
    }

    private func makeUpright(_ frame: Frame, output: OutputTarget) throws -> Frame? {
        guard frame.orientation != .up || frame.isMirrored else { return frame }
        let rotation = Rotation(showingUpright: frame.orientation)
        guard let upright = try rotate(frame.pixelBuffer, by: rotation, mirrored: frame.isMirrored, output: output)
        else { return nil }
        var result = frame
        result.pixelBuffer = upright
        result.orientation = .up
        result.isMirrored = false
        return result
    }

    private func scale(_ source: PixelBuffer, size: Dimensions, filter: ScalingFilter, output: OutputTarget) throws
        -> PixelBuffer?
    {
        try transform(source, size: size, output: output, operation: "scaling") { input, destination in
            Geometry.scale(input, to: destination, filter: filter.mode)
        }
    }

    private func rotate(_ source: PixelBuffer, by rotation: Rotation, mirrored: Bool, output: OutputTarget) throws
        -> PixelBuffer?
    {
        let size = rotation.rotated(Dimensions(width: source.width, height: source.height))
        return try transform(source, size: size, output: output, operation: "rotation") { input, destination in
            try scratch.withResource { scratch in
                Geometry.rotate(
                    input, quarterTurns: rotation.quarterTurns, mirrored: mirrored, into: destination, scratch: scratch)
            }
        }
    }

    /// Checks the formats, then makes a buffer of `size` in the source's format and fills it with `body`.
    private func transform(
        _ source: PixelBuffer, size: Dimensions, output: OutputTarget, operation: String,
        _ body: (ImagePlanes, ImagePlanes) throws -> Void
    ) throws -> PixelBuffer? {
        guard let layout = PixelLayout(source.format), layout.isOutput else {
            throw ViewfinderError(
                .unsupportedPixelFormat,
                "\(operation) handles NV12, NV21, I420, BGRA, RGBA, RGB24, BGR24 and GRAY8, not \(source.format); "
                    + "convert it first")
        }
        guard output.format == source.format else {
            throw ViewfinderError(
                .invalidArgument,
                "\(operation) keeps the format, but the pool holds \(output.format) buffers for a \(source.format) "
                    + "image; convert before or after")
        }
        return try source.withUnsafePlanes { planes in
            let input = try ImagePlanes(reading: source, planes: planes, operation: operation)
            return try output.makeBuffer(width: size.width, height: size.height, operation: operation) {
                destination in try body(input, destination)
            }
        }
    }
}
