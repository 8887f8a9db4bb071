import ViewfinderCore
import ViewfinderImaging
import ViewfinderSystem

/// The frames of a ``VideoOutput``: each shown frame scaled to fit the output and converted to its pixel format,
/// framed in black as it is copied into a driver buffer; and the newest of them.
///
/// Frames for a YUYV output are kept as planar I420 and packed as they are copied, so packing, copying and a change of
/// range are one pass over the frame; and a frame that comes in the kept format at its fitted size (for a YUYV output
/// I420 of either range, as the `webcam` command decodes live view) is kept as it is. An I420 frame of another size
/// for a YUYV output is kept as it is too, and scaled as it is packed: from half the fitted size up, bilinear, in the
/// same one pass. The buffers come from small pools made once per source size, so a steady stream allocates nothing
/// per frame.
/// Unchecked `Sendable`: the rows of black are written once, in `init`, and only read after.
final class VideoOutputFrames: @unchecked Sendable {
    /// The output's size.
    let size: Dimensions
    /// The output's pixel format.
    let format: PixelFormat
    /// The format frames are kept in until they are copied: I420 for a YUYV output, packed as it is copied.
    let keptFormat: PixelFormat
    private let converter = PixelConverter()
    /// A row of black for each plane, as wide as the widest row the device may have.
    private let blackRows: [UnsafeMutableRawPointer]
    private let blackRowBytes: [Int]
    private let state = Locked(State())

    private struct State {
        var generation = 0
        var newest: Placed?
        var shown = 0
        var dropped = 0
        /// Pools for the picture inside the black frame, for the source size and format they were made for.
        var pools: Pools?
    }

    /// The pools for one source size and format, enlarged to fit or not.
    private struct Pools {
        let sourceSize: Dimensions
        let sourceFormat: PixelFormat
        let enlarges: Bool
        /// Where the picture goes in the output, an even number of pixels from the top left corner.
        let placement: (x: Int, y: Int, size: Dimensions)
        /// The source in a format that scales, when it comes in one that does not.
        let scalable: PixelBufferPool?
        let scaled: PixelBufferPool?
        /// The picture in the kept format, unless the source comes in it at its fitted size.
        let converted: PixelBufferPool?
        /// Whether the source is kept as it is and scaled to its place as it is packed.
        let scalesWhilePacking: Bool
    }

    /// Whether frames smaller than the output are scaled up, unless ``prepare(_:enlarging:)`` says otherwise.
    let enlarges: Bool

    init(size: Dimensions, format: PixelFormat, enlarges: Bool = true) throws {
        self.size = size
        self.format = format
        self.keptFormat = format == .yuyv ? .i420 : format
        self.enlarges = enlarges
        let luma: UInt8 = format.colorRange == .full ? 0 : 16
        // Room for a device's padded rows: twice the plane's own.
        let rowBytes = format.planes.map { 2 * $0.elementsPerRow(width: size.width) * $0.bytesPerElement }
        blackRowBytes = rowBytes
        blackRows = format.planes.indices.map { index in
            let count = rowBytes[index]
            let row = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
            let pattern: [UInt8] = format == .yuyv ? [luma, 128, luma, 128] : index == 0 ? [luma] : [128]
            for byte in 0..<count {
                row.storeBytes(of: pattern[byte % pattern.count], toByteOffset: byte, as: UInt8.self)
            }
            return row
        }
    }

    deinit {
        for row in blackRows { row.deallocate() }
    }

    /// A picture in the output's format and where it goes in the output.
    struct Placed: Sendable {
        /// The picture: as large as fits the output, or of another size when it is scaled to `size` as it is packed.
        let picture: PixelBuffer
        /// How far from the output's left and top edges it goes, in pixels (even).
        let x: Int
        let y: Int
        /// The size it takes in the output: the largest of its shape that fits, or its own when it fits and is not
        /// enlarged.
        let size: Dimensions
    }

    /// The newest frame and its generation, which rises with each; `nil` before the first.
    var newest: (generation: Int, frame: Placed?) {
        state.withLock { ($0.generation, $0.newest) }
    }

    /// Frames prepared, and frames dropped because every buffer was in use.
    var counts: (shown: Int, dropped: Int) {
        state.withLock { ($0.shown, $0.dropped) }
    }

    /// Makes `source` the newest frame, enlarged to fit when `enlarging` (by default when ``enlarges``).
    func prepare(_ source: PixelBuffer, enlarging: Bool? = nil) throws {
        let pools = try self.pools(for: source, enlarging: enlarging ?? enlarges)
        let place = pools.placement
        if pools.scalesWhilePacking {
            return show(Placed(picture: source, x: place.x, y: place.y, size: place.size))
        }
        var picture = source
        if let scalable = pools.scalable {
            guard let converted = try converter.convert(picture, into: scalable) else { return drop() }
            picture = converted
        }
        if let scaled = pools.scaled {
            guard let resized = try converter.scale(picture, into: scaled, filter: .bilinear) else { return drop() }
            picture = resized
        }
        // The picture in the kept format, at its fitted size: framed in black as it is copied to the device.
        var frame = picture
        if let converted = pools.converted {
            guard let kept = try converter.convert(picture, into: converted) else { return drop() }
            frame = kept
        }
        show(Placed(picture: frame, x: place.x, y: place.y, size: place.size))
    }

    private func show(_ frame: Placed) {
        state.withLock { state in
            state.generation += 1
            state.newest = frame
            state.shown += 1
        }
    }

    private func drop() {
        state.withLock { $0.dropped += 1 }
    }

    /// The size a picture of `source` size takes in the output: the largest of its shape that fits, in even pixels,
    /// or its own when it fits and `enlarging` is off.
    private func fittedSize(of source: Dimensions, enlarging: Bool) -> Dimensions {
        let fill = min(Double(size.width) / Double(source.width), Double(size.height) / Double(source.height))
        let scale = enlarging ? fill : min(1, fill)
        // A frame kept at its size keeps its exact size; a scaled one gets even sides.
        guard scale != 1 else { return source }
        return Dimensions(
            width: min(size.width, max(2, Int(Double(source.width) * scale / 2) * 2)),
            height: min(size.height, max(2, Int(Double(source.height) * scale / 2) * 2)))
    }

    /// The pools for frames like `source`, made anew when its size or format changes.
    private func pools(for source: PixelBuffer, enlarging: Bool) throws -> Pools {
        let sourceSize = Dimensions(width: source.width, height: source.height)
        if let pools = state.withLock({ $0.pools }), pools.sourceSize == sourceSize,
            pools.sourceFormat == source.format, pools.enlarges == enlarging
        {
            return pools
        }
        // The largest picture of the source's shape that fits, centred.
        let fitted = fittedSize(of: sourceSize, enlarging: enlarging)
        let placement = ((size.width - fitted.width) / 4 * 2, (size.height - fitted.height) / 4 * 2, fitted)
        let needsScaling = fitted != sourceSize
        // Bilinear scaling while packing reads at most two source rows and columns per output one: from half size up.
        if needsScaling, PixelConverter.canScaleWhilePacking(source.format, into: format),
            2 * fitted.width >= source.width, 2 * fitted.height >= source.height
        {
            let pools = Pools(
                sourceSize: sourceSize, sourceFormat: source.format, enlarges: enlarging, placement: placement,
                scalable: nil, scaled: nil, converted: nil, scalesWhilePacking: true)
            state.withLock { $0.pools = pools }
            return pools
        }
        let scalesAsIs = PixelConverter.canScale(source.format)
        let scalableFormat = scalesAsIs ? source.format : PixelFormat.nv12FullRange
        let pools = Pools(
            sourceSize: sourceSize, sourceFormat: source.format, enlarges: enlarging, placement: placement,
            scalable: scalesAsIs || !needsScaling
                ? nil
                : try PixelBufferPool(
                    width: source.width, height: source.height, format: scalableFormat, capacity: 2),
            scaled: needsScaling
                ? try PixelBufferPool(
                    width: fitted.width, height: fitted.height, format: scalableFormat, capacity: 2) : nil,
            converted: !needsScaling && keepsAsItIs(source.format)
                ? nil
                : try PixelBufferPool(width: fitted.width, height: fitted.height, format: keptFormat, capacity: 3),
            scalesWhilePacking: false
        )
        state.withLock { $0.pools = pools }
        return pools
    }

    /// Whether a picture in `sourceFormat` at its fitted size is kept as it is: in the kept format, or for a YUYV
    /// output in I420 of either range, as packing maps the range too.
    private func keepsAsItIs(_ sourceFormat: PixelFormat) -> Bool {
        sourceFormat == keptFormat || (format == .yuyv && sourceFormat.fourCC == keptFormat.fourCC)
    }

    /// The bytes of a whole frame in a driver buffer whose first plane has `bytesPerRow` bytes per row.
    func byteCount(bytesPerRow: Int) -> Int {
        format.planes.indices.reduce(0) { total, index in
            total + deviceStride(ofPlane: index, bytesPerRow: bytesPerRow)
                * format.planes[index].rows(height: size.height)
        }
    }

    /// Copies `frame` into a driver buffer of `length` bytes at `address`, framed in black.
    ///
    /// - Parameter drawsBorders: Whether to write the black around the picture; a buffer that holds black there
    ///   already (it last held a picture of the same size and place, or all black) is left alone there.
    func copy(
        _ frame: Placed, to address: UnsafeMutableRawPointer, bytesPerRow: Int, length: Int, drawsBorders: Bool = true
    ) {
        guard byteCount(bytesPerRow: bytesPerRow) <= length else { return }
        guard frame.picture.format == format else {
            return pack(frame, to: address, bytesPerRow: bytesPerRow, drawsBorders: drawsBorders)
        }
        frame.picture.withUnsafePlanes { planes in
            var offset = 0
            for index in format.planes.indices {
                let plane = format.planes[index]
                let stride = deviceStride(ofPlane: index, bytesPerRow: bytesPerRow)
                let source = planes[index]
                let black = blackRow(plane: index)
                let fullRow = min(stride, plane.elementsPerRow(width: size.width) * plane.bytesPerElement)
                let rowBytes = min(fullRow, plane.elementsPerRow(width: frame.picture.width) * plane.bytesPerElement)
                let left = min(fullRow - rowBytes, plane.elementsPerRow(width: frame.x) * plane.bytesPerElement)
                let top = plane.rows(height: frame.y)
                let rows = plane.rows(height: frame.picture.height)
                for row in 0..<plane.rows(height: size.height) {
                    let line = address + offset + row * stride
                    guard row >= top, row < top + rows else {
                        if drawsBorders { line.copyMemory(from: black, byteCount: fullRow) }
                        continue
                    }
                    // Black to the left and right of the picture, the picture's row between.
                    if drawsBorders {
                        line.copyMemory(from: black, byteCount: left)
                        (line + left + rowBytes).copyMemory(from: black, byteCount: fullRow - left - rowBytes)
                    }
                    (line + left).copyMemory(
                        from: source.baseAddress + (row - top) * source.bytesPerRow, byteCount: rowBytes)
                }
                offset += stride * plane.rows(height: size.height)
            }
        }
    }

    /// Packs a kept I420 frame into a YUYV driver buffer, scaled to its place when it has another size, framed in
    /// black when `drawsBorders`.
    private func pack(_ frame: Placed, to address: UnsafeMutableRawPointer, bytesPerRow: Int, drawsBorders: Bool) {
        let black = blackRow(plane: 0)
        let fullRow = min(bytesPerRow, 2 * size.width)
        let left = min(fullRow, 2 * frame.x)
        let rowBytes = min(fullRow - left, 2 * frame.size.width)
        let rows = frame.y..<min(size.height, frame.y + frame.size.height)
        if drawsBorders {
            for row in 0..<size.height {
                let line = address + row * bytesPerRow
                guard rows.contains(row) else {
                    line.copyMemory(from: black, byteCount: fullRow)
                    continue
                }
                line.copyMemory(from: black, byteCount: left)
                (line + left + rowBytes).copyMemory(from: black, byteCount: fullRow - left - rowBytes)
            }
        }
        // The frame fits the output by construction; packing it cannot fail for an I420 picture.
        let start = address + frame.y * bytesPerRow + left
        if frame.size == Dimensions(width: frame.picture.width, height: frame.picture.height) {
            try? converter.convert(frame.picture, into: [(start, bytesPerRow)], format: format)
        } else {
            try? converter.scaleAndPack(
                frame.picture, to: frame.size, into: start, bytesPerRow: bytesPerRow, format: format)
        }
    }

    /// Fills a driver buffer with a black frame.
    func fillBlack(_ address: UnsafeMutableRawPointer, bytesPerRow: Int, length: Int) {
        var offset = 0
        for index in format.planes.indices {
            let stride = deviceStride(ofPlane: index, bytesPerRow: bytesPerRow)
            let rows = format.planes[index].rows(height: size.height)
            guard offset + stride * rows <= length else { return }
            let black = blackRow(plane: index)
            let rowBytes = min(stride, blackRowBytes[index])
            for row in 0..<rows {
                (address + offset + row * stride).copyMemory(from: black, byteCount: rowBytes)
            }
            offset += stride * rows
        }
    }

    /// The bytes of a driver buffer's row of plane `index`: the first plane's, scaled by the plane's bytes per pixel.
    private func deviceStride(ofPlane index: Int, bytesPerRow: Int) -> Int {
        guard index > 0 else { return bytesPerRow }
        let first = format.planes[0]
        let plane = format.planes[index]
        return bytesPerRow * plane.bytesPerElement * first.horizontalSubsampling
            / (plane.horizontalSubsampling * first.bytesPerElement)
    }

    /// A whole row of black in plane `index`: low luma, neutral chroma.
    private func blackRow(plane index: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(blackRows[index])
    }
}
