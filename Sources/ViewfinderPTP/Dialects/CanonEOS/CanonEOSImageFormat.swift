/// EOS ImageFormat: the files each picture makes, in the camera's packed form and as libgphoto2 condenses it.
///
/// The camera sends `[u32 count: 1 or 2]`, then for each file `[u32 0x10][u32 type: 1 JPEG, 6 raw][u32 size]
/// [u32 compression]`. libgphoto2's `ptp_unpack_EOS_ImageFormat` condenses that into one 16-bit value of four
/// nibbles, the first file's size and compression then the second's, with 8 added to a raw file's compression and
/// the sizes from 0xE (S1 to S3) one lower; Viewfinder uses the same values, so its tables are libgphoto2's.
package enum CanonEOSImageFormat {
    /// The EOS properties whose values are image formats: the camera's, and those of its CF, SD and external card.
    package static let codes: Set<UInt16> = [0xD120, 0xD121, 0xD122, 0xD123]

    /// The size of one file's entry.
    private static let entrySize: UInt32 = 0x10

    /// The condensed value of the format packed in `bytes` at `offset`, moving `offset` past it; `nil` when the count
    /// is not 1 or 2, an entry's size is not 16 or the bytes end first.
    package static func condense(_ bytes: [UInt8], at offset: inout Int) -> UInt16? {
        guard bytes.count - offset >= 4 else { return nil }
        let count = bytes.littleEndianUInt32(at: offset)
        guard count == 1 || count == 2, bytes.count - offset >= 4 + 16 * Int(count) else { return nil }
        var value: UInt16 = 0
        for index in 0..<Int(count) {
            let entry = offset + 4 + 16 * index
            guard bytes.littleEndianUInt32(at: entry) == entrySize else { return nil }
            let type = bytes.littleEndianUInt32(at: entry + 4)
            var size = bytes.littleEndianUInt32(at: entry + 8)
            if size >= 0xE { size -= 1 }
            let compression = bytes.littleEndianUInt32(at: entry + 12) | (type == 6 ? 8 : 0)
            let nibbles = UInt16(truncatingIfNeeded: (size & 0xF) << 4 | compression & 0xF)
            value |= nibbles << (8 - 8 * index)
        }
        offset += 4 + 16 * Int(count)
        return value
    }

    /// The packed form of a condensed value, as libgphoto2's `ptp_pack_EOS_ImageFormat` writes it: a second file
    /// when the low byte is not zero.
    package static func pack(_ value: UInt16) -> [UInt8] {
        let files = value & 0xFF == 0 ? [value >> 8] : [value >> 8, value & 0xFF]
        var writer = PTPDataWriter(capacity: 4 + 16 * files.count)
        writer.append(UInt32(files.count))
        for file in files {
            let size = UInt32(file >> 4 & 0xF)
            let compression = UInt32(file & 0xF)
            writer.append(entrySize)
            writer.append(UInt32(compression & 8 != 0 ? 6 : 1))
            writer.append(size >= 0xD ? size + 1 : size)
            writer.append(compression & 7)
        }
        return writer.bytes
    }
}
