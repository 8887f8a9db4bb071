import ViewfinderCore

/// Canon EOS FocusInfoEx (0xD1D3), the autofocus points a body reports in its events, as libgphoto2's `focusinfo`
/// reads them.
///
/// Little-endian: the record's size (u32), half of it (u16), a version (u16), the points the record holds (u16) and
/// those in use (u16), the size of the coordinate space (u16 × 2) and a second size (u16 × 2); then four arrays of
/// signed 16-bit values, one entry per point held: the heights, the widths, and the centres' offsets from the middle
/// of the space across and down; then one bit per point held, set for the selected points. What follows is not
/// known and is skipped. A record whose points are all zero is a placeholder: no points.
package enum CanonEOSFocusInfo {
    /// The bytes before the arrays.
    static let headerLength = 20

    /// The focus information a FocusInfoEx value gives, or `nil` for a placeholder with no points.
    ///
    /// - Throws: ``ViewfinderError/Code/malformedData`` when the record's size is not the bytes it came in, the
    ///   points in use outnumber those held, the arrays do not fit the record, or the coordinate space has no size.
    package static func decode(_ value: [UInt8]) throws(ViewfinderError) -> FocusInfo? {
        func malformed(_ reason: String) -> ViewfinderError {
            ViewfinderError(.malformedData, "the camera's FocusInfoEx record is malformed: \(reason)")
        }
        guard value.count >= headerLength else {
            throw malformed("\(value.count) bytes, fewer than its \(headerLength)-byte header")
        }
        func u16(_ offset: Int) -> Int { Int(value[offset]) | Int(value[offset + 1]) << 8 }
        func i16(_ offset: Int) -> Int { Int(Int16(bitPattern: UInt16(u16(offset)))) }
        let size = Int(value.littleEndianUInt32(at: 0))
        guard size >= headerLength, size <= value.count else {
            throw malformed("it says it is \(size) bytes long and came in \(value.count)")
        }
        let held = u16(8)
        let inUse = u16(10)
        guard held > 0, inUse > 0 else { return nil }
        guard inUse <= held else { throw malformed("\(inUse) points in use of \(held)") }
        // The four arrays and the selection bits, which bound the points read by the bytes that came.
        guard headerLength + 8 * held + (held + 7) / 8 <= size else {
            throw malformed("\(held) points do not fit its \(size) bytes")
        }
        let aspect = Dimensions(width: u16(12), height: u16(14))
        guard aspect.width > 0, aspect.height > 0 else { throw malformed("its coordinate space has no size") }
        let points = (0..<inUse).map { index in
            let height = max(i16(headerLength + 2 * index), 0)
            let width = max(i16(headerLength + 2 * held + 2 * index), 0)
            let centerX = aspect.width / 2 + i16(headerLength + 4 * held + 2 * index)
            let centerY = aspect.height / 2 + i16(headerLength + 6 * held + 2 * index)
            let selected = value[headerLength + 8 * held + index / 8] & (1 << (index % 8)) != 0
            return FocusPoint(
                rect: LiveViewRect(x: centerX - width / 2, y: centerY - height / 2, width: width, height: height),
                isActive: selected)
        }
        return FocusInfo(aspect: aspect, points: points)
    }

    /// A FocusInfoEx value as a camera sends it for `points` in a coordinate space of `aspect`, the centres given
    /// from its middle.
    package static func encode(aspect: Dimensions, points: [FocusPoint]) -> [UInt8] {
        let held = points.count
        let size = headerLength + 8 * held + (held + 7) / 8 + 2
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        func put16(_ value: Int) {
            let bits = UInt16(truncatingIfNeeded: value)
            bytes += [UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8)]
        }
        bytes += withUnsafeBytes(of: UInt32(size).littleEndian, Array.init)
        for field in [size - 4, 1, held, held, aspect.width, aspect.height, aspect.width, aspect.height] {
            put16(field)
        }
        for point in points { put16(point.rect.height) }
        for point in points { put16(point.rect.width) }
        for point in points { put16(point.rect.x + point.rect.width / 2 - aspect.width / 2) }
        for point in points { put16(point.rect.y + point.rect.height / 2 - aspect.height / 2) }
        var selection = [UInt8](repeating: 0, count: (held + 7) / 8)
        for (index, point) in points.enumerated() where point.isActive {
            selection[index / 8] |= 1 << (index % 8)
        }
        bytes += selection
        put16(0xFFFF)
        return bytes
    }
}
