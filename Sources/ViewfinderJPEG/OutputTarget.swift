import ViewfinderCore

/// Where the result of an imaging operation goes: a new buffer, or one from a caller's pool.
@usableFromInline
package enum OutputTarget {
    /// A buffer allocated for this result, in a format.
    case newBuffer(PixelFormat)
    /// A buffer from a pool, whose geometry must match the result.
    case pool(PixelBufferPool)

    /// The format of the result.
    package var format: PixelFormat {
        switch self {
        case .newBuffer(let format): format
        case .pool(let pool): pool.format
        }
    }

    /// Makes a `width` × `height` buffer and fills it with `fill`; `nil` when the pool has no free buffer.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` when the pool's buffers have another size, and whatever
    ///   `fill` throws.
    package func makeBuffer(width: Int, height: Int, operation: String, fill: (ImagePlanes) throws -> Void) throws
        -> PixelBuffer?
    {
        switch self {
        case .newBuffer(let format):
            return try PixelBuffer(width: width, height: height, format: format) { planes in
                try fill(
                    ImagePlanes(writing: planes, width: width, height: height, format: format, operation: operation))
            }
        case .pool(let pool):
            guard pool.width == width, pool.height == height else {
                throw ViewfinderError(
                    .invalidArgument,
                    "\(operation) makes \(width)x\(height) images, but the pool holds \(pool.width)x\(pool.height) "
                        + "buffers; make the pool for the result's size")
            }
            return try pool.makeBuffer { planes in
                try fill(
                    ImagePlanes(
                        writing: planes, width: width, height: height, format: pool.format, operation: operation))
            }
        }
    }
}
