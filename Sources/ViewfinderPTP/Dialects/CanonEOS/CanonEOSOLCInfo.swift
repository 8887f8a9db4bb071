import ViewfinderCore

/// What a Canon's OLCInfoChanged record (0xC1A5) says of its exposure: newer EOS bodies and PowerShots, asked with
/// SetRequestOLCInfoGroup, report shutter speed, aperture and ISO in these records as well as, or instead of, property
/// records.
///
/// The record holds a length, a 16-bit mask of the groups it carries, then each group in mask order, of a size that
/// depends on the camera's OLC version (property 0xD199); libgphoto2 gives the sizes by version. The shutter speed
/// code is the group's byte 5 (byte 7 from version 0x14), the aperture's byte 4 (byte 7 from version 0x12), ISO's
/// byte 3: in the same codes as the property records.
enum CanonEOSOLCInfo {
    /// The record type.
    static let recordType: UInt32 = 0xC1A5

    /// The size of each group (mask bits 0x0001 to 0x1000) for each OLC version, as libgphoto2's table gives them;
    /// a version past the last is read as the last.
    private static let groupSizes: [UInt32: [Int]] = [
        0x7: [2, 6, 5, 4, 4, 6, 7, 4, 6, 5, 5, 8, 1],
        0x8: [2, 6, 5, 4, 4, 6, 7, 4, 6, 7, 7, 8, 1],
        0x9: [2, 6, 5, 4, 4, 6, 7, 4, 6, 7, 7, 8, 1],
        0xA: [2, 6, 5, 4, 4, 6, 7, 4, 6, 7, 7, 8, 1],
        0xB: [2, 6, 5, 4, 4, 6, 8, 4, 6, 5, 5, 9, 1],
        0xC: [2, 6, 5, 4, 4, 6, 8, 4, 6, 5, 5, 9, 1],
        0xD: [2, 6, 5, 4, 4, 6, 8, 4, 6, 5, 5, 9, 1],
        0xE: [2, 6, 5, 4, 4, 6, 8, 4, 6, 5, 5, 9, 1],
        0xF: [2, 7, 6, 4, 4, 6, 8, 4, 6, 5, 5, 9, 1],
        0x10: [2, 7, 6, 4, 4, 6, 8, 4, 6, 5, 5, 9, 1],
        0x11: [2, 7, 6, 6, 4, 6, 8, 4, 6, 5, 5, 9, 8],
        0x12: [2, 7, 9, 6, 4, 6, 8, 5, 7, 5, 5, 9, 8],
        0x13: [2, 7, 9, 7, 4, 6, 8, 5, 7, 5, 5, 9, 8],
        0x14: [2, 9, 9, 7, 4, 6, 8, 5, 7, 5, 5, 9, 8],
    ]

    /// The exposure values a record's payload (what follows its size and type) carries, as property codes and
    /// values; none for an OLC version the camera has not reported (0) or one too old to have sizes.
    static func exposure(in payload: [UInt8], version: UInt32) -> [(PTPDevicePropertyCode, Int64)] {
        guard version >= 0x7, payload.count >= 6 else { return [] }
        let sizes = groupSizes[min(version, 0x14)] ?? []
        let mask = UInt16(payload[4]) | UInt16(payload[5]) << 8
        var values: [(PTPDevicePropertyCode, Int64)] = []
        var offset = 8
        for (bit, size) in sizes.enumerated() {
            guard mask & (1 << bit) != 0 else { continue }
            let group = payload.dropFirst(offset).prefix(size)
            offset += size
            func byte(_ index: Int) -> Int64? {
                index < group.count ? Int64(group[group.startIndex + index]) : nil
            }
            let found: (PTPDevicePropertyCode, Int64?)? =
                switch 1 << bit {
                case 0x0002: (.canonEOSShutterSpeed, byte(version >= 0x14 ? 7 : 5))
                case 0x0004: (.canonEOSAperture, byte(version >= 0x12 ? 7 : 4))
                case 0x0008: (.canonEOSISOSpeed, byte(3))
                default: nil
                }
            if let (code, value) = found, let value {
                values.append((code, value))
            }
        }
        return values
    }
}
