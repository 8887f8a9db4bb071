import ViewfinderCore

/// Writes little-endian PTP data: integers, strings, arrays and typed values.
///
/// ```swift
/// var writer = PTPDataWriter()
/// writer.append(UInt16(0x500F))
/// try writer.append(string: "Viewfinder")
/// let bytes = writer.bytes
/// ```
public struct PTPDataWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer.
    ///
    /// - Parameter capacity: The number of bytes to reserve room for.
    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends a little-endian integer.
    public mutating func append<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends raw bytes.
    public mutating func append(bytes other: some Sequence<UInt8>) {
        bytes.append(contentsOf: other)
    }

    /// Appends a PTP string: a count of UCS-2 code units (the terminating NUL included) and the units.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for a string of more than 254 UTF-16 units,
    ///   which PTP cannot carry.
    public mutating func append(string: String) throws(ViewfinderError) {
        let units = Array(string.utf16)
        guard !units.isEmpty else {
            bytes.append(0)
            return
        }
        guard units.count < 255 else {
            throw ViewfinderError(
                .invalidArgument,
                "a PTP string holds at most 254 UTF-16 units, \"\(string.prefix(20))…\" has \(units.count)")
        }
        bytes.append(UInt8(units.count + 1))
        for unit in units {
            append(unit)
        }
        append(UInt16(0))
    }

    /// Appends an array of little-endian integers with its 32-bit count.
    public mutating func append<Integer: FixedWidthInteger>(array: [Integer]) {
        append(UInt32(array.count))
        for element in array {
            append(element)
        }
    }
}
