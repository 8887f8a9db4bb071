/// What a FunctionFS function writes to its `ep0` before it can serve: its USB descriptors (FunctionFS's v2 format)
/// and its strings.
///
/// The function is a still-image interface (class 6, subclass 1, protocol 1) with a bulk-in, a bulk-out and an
/// interrupt-in endpoint, which FunctionFS opens as `ep1`, `ep2` and `ep3`, for full and high speed.
enum FunctionFSDescriptors {
    /// The bulk endpoints' packet size at high speed; full speed uses 64.
    static let highSpeedBulkPacketSize: UInt16 = 512
    /// The interrupt endpoint's packet size: an event container is 24 bytes at most.
    static let interruptPacketSize: UInt16 = 64

    /// The descriptors blob.
    static var descriptors: [UInt8] {
        func interface() -> [UInt8] {
            // bLength, INTERFACE, number, alternate, 3 endpoints, class 6/1/1, string 1.
            [9, 4, 0, 0, 3, 6, 1, 1, 1]
        }
        func endpoint(_ address: UInt8, _ attributes: UInt8, _ size: UInt16, _ interval: UInt8) -> [UInt8] {
            [7, 5, address, attributes, UInt8(size & 0xFF), UInt8(size >> 8), interval]
        }
        func speed(bulk: UInt16, interval: UInt8) -> [UInt8] {
            interface() + endpoint(0x81, 2, bulk, 0) + endpoint(0x02, 2, bulk, 0)
                + endpoint(0x83, 3, interruptPacketSize, interval)
        }
        let body =
            little(UInt32(4)) + little(UInt32(4)) + speed(bulk: 64, interval: 10)
            + speed(bulk: highSpeedBulkPacketSize, interval: 7)
        // FUNCTIONFS_DESCRIPTORS_MAGIC_V2, the length, FUNCTIONFS_HAS_FS_DESC | FUNCTIONFS_HAS_HS_DESC.
        return little(UInt32(3)) + little(UInt32(12 + body.count)) + little(UInt32(1 | 2)) + body
    }

    /// The strings blob: the interface's name, in US English.
    static var strings: [UInt8] {
        let text = Array("PTP".utf8) + [0]
        // FUNCTIONFS_STRINGS_MAGIC, the length, one string, one language (0x0409).
        let body = little(UInt32(1)) + little(UInt32(1)) + little(UInt16(0x0409)) + text
        return little(UInt32(2)) + little(UInt32(8 + body.count)) + body
    }

    private static func little<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
