import ViewfinderCore

/// One plane as TurboJPEG, libyuv and Viewfinder's pixel kernels take it: the first byte and the distance from one row to the next.
package struct PlaneRef {
    /// The first byte; read-only when the plane belongs to a source image.
    package var base: UnsafeMutablePointer<UInt8>
    /// Bytes from one row to the next.
    package var stride: Int32

    package init(_ base: UnsafeMutableRawPointer, stride: Int) {
        self.base = base.assumingMemoryBound(to: UInt8.self)
        self.stride = Int32(stride)
    }

    /// Fills the columns right of `width` and the rows below `height` with copies of the last column and row.
    package func repeatEdges(width: Int32, height: Int32, paddedWidth: Int32, paddedHeight: Int32) {
        if paddedWidth > width {
            for row in 0..<Int(height) {
                let line = base + row * Int(stride)
                for column in Int(width)..<Int(paddedWidth) { line[column] = line[Int(width) - 1] }
            }
        }
        let lastRow = base + (Int(height) - 1) * Int(stride)
        for row in Int(height)..<Int(paddedHeight) {
            (base + row * Int(stride)).update(from: lastRow, count: Int(paddedWidth))
        }
    }
}

/// An image as the C libraries take it: its size, layout, sample range and up to three planes.
///
/// Unused planes repeat the first, so the value never holds a dangling pointer. The memory belongs to whoever made
/// the value: a `PixelBuffer` kept alive around the call, a buffer being filled, or scratch memory.
package struct ImagePlanes {
    package var width: Int32
    package var height: Int32
    package var layout: PixelLayout
    package var range: SampleRange
    package var planes: (PlaneRef, PlaneRef, PlaneRef)

    package init(
        width: Int, height: Int, layout: PixelLayout, range: SampleRange, planes: (PlaneRef, PlaneRef, PlaneRef)
    ) {
        self.width = Int32(width)
        self.height = Int32(height)
        self.layout = layout
        self.range = range
        self.planes = planes
    }

    /// The first plane: luma, packed pixels or greyscale.
    package var y: PlaneRef { planes.0 }
    /// The second plane: interleaved chroma (NV12, NV21) or Cb (I420).
    package var u: PlaneRef { planes.1 }
    /// The third plane: Cr (I420).
    package var v: PlaneRef { planes.2 }

    /// The width of a 4:2:0 chroma plane, in samples.
    package var chromaWidth: Int32 { (width + 1) / 2 }
    /// The height of a 4:2:0 chroma plane, in rows.
    package var chromaHeight: Int32 { (height + 1) / 2 }

    /// Describes a buffer for reading, or throws when the imaging code cannot handle its format.
    ///
    /// Call it inside `PixelBuffer/withUnsafePlanes(_:)` and use the result only there.
    package init(reading buffer: PixelBuffer, planes: [PixelBuffer.Plane], operation: String) throws {
        let layout = try PixelLayout.required(buffer.format, operation: operation)
        try Self.checkSize(width: buffer.width, height: buffer.height)
        func ref(_ index: Int) throws -> PlaneRef {
            let plane = planes[index < planes.count ? index : 0]
            try Self.checkStride(plane.bytesPerRow)
            return PlaneRef(UnsafeMutableRawPointer(mutating: plane.baseAddress), stride: plane.bytesPerRow)
        }
        self.init(
            width: buffer.width, height: buffer.height, layout: layout, range: SampleRange(buffer.format),
            planes: (try ref(0), try ref(1), try ref(2)))
    }

    /// Describes a buffer that is being filled.
    package init(
        writing planes: PixelBuffer.MutablePlanes, width: Int, height: Int, format: PixelFormat, operation: String
    )
        throws
    {
        let layout = try PixelLayout.required(format, operation: operation)
        try Self.checkSize(width: width, height: height)
        func ref(_ index: Int) throws -> PlaneRef {
            let plane = planes[index < planes.count ? index : 0]
            try Self.checkStride(plane.bytesPerRow)
            return PlaneRef(plane.baseAddress, stride: plane.bytesPerRow)
        }
        self.init(
            width: width, height: height, layout: layout, range: SampleRange(format),
            planes: (try ref(0), try ref(1), try ref(2)))
    }

    /// Checks that a size fits the C libraries' `int` parameters.
    private static func checkSize(width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= Int(Int32.max) / 4, height <= Int(Int32.max) else {
            throw ViewfinderError(.invalidArgument, "a \(width)x\(height) image is too large to process")
        }
    }

    /// Checks that a row stride fits the C libraries' `int` parameters.
    private static func checkStride(_ stride: Int) throws {
        guard stride >= 0, stride <= Int(Int32.max) else {
            throw ViewfinderError(.invalidArgument, "a row stride of \(stride) bytes is too large to process")
        }
    }
}

extension PixelLayout {
    /// The layout of a format, or an `ViewfinderError/Code/unsupportedPixelFormat` error naming the operation.
    package static func required(_ format: PixelFormat, operation: String) throws -> PixelLayout {
        guard let layout = PixelLayout(format) else {
            throw ViewfinderError(
                .unsupportedPixelFormat,
                "\(operation) does not handle \(format) (\(format.fourCC)); convert to NV12, I420 or BGRA first")
        }
        return layout
    }
}
