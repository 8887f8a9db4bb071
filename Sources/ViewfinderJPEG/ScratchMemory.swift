import ViewfinderSystem

/// Memory that grows to the largest size asked of it and is then reused, for intermediate planes.
///
/// Not thread-safe: one user at a time, which ``ReusableResources`` ensures.
package final class ScratchMemory {
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0

    package init() {}

    deinit {
        base?.deallocate()
    }

    /// Lays out one plane of `rows` rows of `bytesPerRow` bytes.
    ///
    /// The memory stays valid until the next call; its contents are undefined.
    package func plane(bytesPerRow: Int32, rows: Int32) -> PlaneRef {
        let stride = Self.stride(bytesPerRow)
        return PlaneRef(reserve(stride * Int(rows)), stride: stride)
    }

    /// Lays out two planes of `rows` rows of `bytesPerRow` bytes, such as separate Cb and Cr.
    ///
    /// The memory stays valid until the next call; its contents are undefined.
    package func chromaPlanes(bytesPerRow: Int32, rows: Int32) -> (PlaneRef, PlaneRef) {
        let stride = Self.stride(bytesPerRow)
        let planeBytes = stride * Int(rows)
        let memory = reserve(2 * planeBytes)
        return (PlaneRef(memory, stride: stride), PlaneRef(memory + planeBytes, stride: stride))
    }

    /// A row stride of at least `bytesPerRow` that keeps every row 64-byte aligned.
    private static func stride(_ bytesPerRow: Int32) -> Int {
        (Int(bytesPerRow) + 63) & ~63
    }

    /// Lays out an image of `width` × `height` pixels in `layout` and `range`.
    package func image(width: Int32, height: Int32, layout: PixelLayout, range: SampleRange) -> ImagePlanes {
        var offsets = (0, 0, 0)
        var strides = (0, 0, 0)
        var total = 0
        for index in 0..<layout.planeCount {
            let (byteWidth, rows, _) = ImagePlanes.extent(ofPlane: index, layout: layout, width: width, height: height)
            let stride = Self.stride(byteWidth)
            switch index {
            case 0: (offsets.0, strides.0) = (total, stride)
            case 1: (offsets.1, strides.1) = (total, stride)
            default: (offsets.2, strides.2) = (total, stride)
            }
            total += stride * Int(rows)
        }
        let memory = reserve(total)
        let first = PlaneRef(memory, stride: strides.0)
        return ImagePlanes(
            width: Int(width), height: Int(height), layout: layout, range: range,
            planes: (
                first, layout.planeCount > 1 ? PlaneRef(memory + offsets.1, stride: strides.1) : first,
                layout.planeCount > 2 ? PlaneRef(memory + offsets.2, stride: strides.2) : first
            ))
    }

    /// The first byte of at least `byteCount` bytes, growing the memory when it is too small.
    private func reserve(_ byteCount: Int) -> UnsafeMutableRawPointer {
        if let base, capacity >= byteCount {
            return base
        }
        base?.deallocate()
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 64), alignment: 64)
        base = memory
        capacity = max(byteCount, 64)
        return memory
    }
}
