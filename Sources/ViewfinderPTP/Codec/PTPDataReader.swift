import ViewfinderCore

/// Reads little-endian PTP data: integers, strings, arrays and typed values, checking every length against the
/// bytes that are left before it allocates anything.
///
/// Every failure is a `ViewfinderError` with the code `ViewfinderError/Code/malformedData`
/// whose message names what was being read:
///
/// ```swift
/// var reader = PTPDataReader(data, reading: "StorageInfo")
/// let storageType = try reader.read(UInt16.self)
/// let description = try reader.readString()
/// ```
public struct PTPDataReader: Sendable {
    /// The bytes being read.
    public let bytes: [UInt8]
    /// The index of the next byte to read.
    public private(set) var offset: Int
    /// What the bytes are, for error messages, such as `"DeviceInfo"`.
    public let subject: String

    /// Creates a reader at the start of `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: The data.
    ///   - subject: What the bytes are, for error messages.
    public init(_ bytes: [UInt8], reading subject: String) {
        self.bytes = bytes
        self.offset = 0
        self.subject = subject
    }

    /// The number of bytes not read yet.
    public var remainingCount: Int { bytes.count - offset }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset == bytes.count }

    /// An error that says the data is malformed at the current offset.
    public func malformed(_ reason: String) -> ViewfinderError {
        ViewfinderError(.malformedData, "malformed \(subject) at byte \(offset) of \(bytes.count): \(reason)")
    }

    /// Checks that `count` more bytes are there.
    private func require(_ count: Int, for what: String) throws(ViewfinderError) {
        guard count >= 0, count <= remainingCount else {
            throw malformed("\(what) needs \(count) bytes, but only \(remainingCount) are left")
        }
    }

    /// Reads a little-endian integer.
    public mutating func read<Integer: FixedWidthInteger>(_ type: Integer.Type) throws(ViewfinderError) -> Integer {
        let size = MemoryLayout<Integer>.size
        try require(size, for: "a \(size * 8)-bit integer")
        let value = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Integer.self) }
        offset += size
        return Integer(littleEndian: value)
    }

    /// Reads `count` raw bytes.
    public mutating func readBytes(_ count: Int) throws(ViewfinderError) -> [UInt8] {
        try require(count, for: "a block of bytes")
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// Reads the bytes that are left.
    public mutating func readRemainingBytes() -> [UInt8] {
        defer { offset = bytes.count }
        return Array(bytes[offset...])
    }

    /// Reads a PTP string: a count of UCS-2 code units (the terminating NUL included) and the units.
    ///
    /// A count of 0 is the empty string. Unpaired surrogates become U+FFFD.
    public mutating func readString() throws(ViewfinderError) -> String {
        let count = Int(try read(UInt8.self))
        guard count > 0 else { return "" }
        try require(count * 2, for: "a string of \(count) UCS-2 units")
        var units: [UInt16] = []
        units.reserveCapacity(count)
        for _ in 0..<count {
            units.append(try read(UInt16.self))
        }
        guard units.last == 0 else {
            throw malformed("a string of \(count) UCS-2 units does not end with NUL")
        }
        units.removeLast()
        return String(decoding: units, as: UTF16.self)
    }

    /// Reads a string that a dataset may leave out at its end, as cameras do with the last strings of DeviceInfo and
    /// ObjectInfo: the empty string when no bytes are left, or when the string is cut short (whatever is left is then
    /// skipped), as libgphoto2 reads them.
    public mutating func readTrailingString() -> String {
        guard !isAtEnd else { return "" }
        do {
            return try readString()
        } catch {
            offset = bytes.count
            return ""
        }
    }

    /// Reads an array: a 32-bit element count and the elements.
    ///
    /// - Parameters:
    ///   - elementSize: The smallest number of bytes one element takes, to check the count before allocating.
    ///   - readElement: Reads one element.
    public mutating func readArray<Element>(
        elementSize: Int, _ readElement: (inout PTPDataReader) throws(ViewfinderError) -> Element
    ) throws(ViewfinderError) -> [Element] {
        let count = Int(try read(UInt32.self))
        guard count <= remainingCount / max(elementSize, 1) else {
            throw malformed("an array claims \(count) elements of \(elementSize) bytes, but \(remainingCount) are left")
        }
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            elements.append(try readElement(&self))
        }
        return elements
    }

    /// Reads an array of little-endian integers.
    public mutating func readArray<Integer: FixedWidthInteger>(
        of type: Integer.Type
    ) throws(ViewfinderError) -> [Integer] {
        try readArray(elementSize: MemoryLayout<Integer>.size) { (reader) throws(ViewfinderError) in
            try reader.read(Integer.self)
        }
    }

    /// Checks that nothing is left after a dataset.
    public func expectEnd() throws(ViewfinderError) {
        guard isAtEnd else {
            throw malformed("\(remainingCount) unexpected bytes after the end")
        }
    }
}
