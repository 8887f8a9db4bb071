import ViewfinderCore

/// One object of a folder as Canon EOS's GetObjectInfoEx lists it (``PTPOperationCode/canonEOSGetObjectInfoEx``):
/// a fixed record of its handle, storage, format, flags, size, 8.3 file name and time, read where libgphoto2 reads
/// them.
///
/// The answer is a 32-bit count of records, each after its own 32-bit length (56 bytes with it, or more):
///
/// ```swift
/// let entries = try CanonEOSObjectEntry.list(decoding: data)
/// let names = entries.map(\.filename)   // ["IMG_0001.JPG", "IMG_0002.CR3"]
/// ```
public struct CanonEOSObjectEntry: Hashable, Sendable {
    /// The object's handle.
    public var handle: UInt32
    /// The storage the object is on.
    public var storageID: UInt32
    /// The object's format, as ObjectInfo gives it.
    public var format: PTPObjectFormatCode
    /// Canon's flags: bit 0 marks a read-only object.
    public var flags: UInt8
    /// The size in bytes; `0xFFFFFFFF` for objects of 4 GiB or more, as in ObjectInfo.
    public var size: UInt32
    /// The file name, such as `IMG_0001.JPG`.
    public var filename: String
    /// When the object was made, in seconds since 1970 on the camera's clock.
    public var time: UInt32

    /// Creates an entry.
    public init(
        handle: UInt32, storageID: UInt32, format: PTPObjectFormatCode, flags: UInt8 = 0, size: UInt32,
        filename: String, time: UInt32
    ) {
        self.handle = handle
        self.storageID = storageID
        self.format = format
        self.flags = flags
        self.size = size
        self.filename = filename
        self.time = time
    }

    /// The bytes of a record after its length: the fields end with the time at offset 48.
    static let recordLength = 52
    /// Where the fields are in a record, after its length, as libgphoto2's `PTP_cefe_*` offsets say.
    private enum Offset {
        static let handle = 0
        static let storageID = 4
        static let format = 8
        static let flags = 16
        static let size = 20
        static let parent = 24
        static let filename = 32
        static let filenameLength = 16
        static let time = 48
    }

    /// Decodes the answer to GetObjectInfoEx.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the count exceeds what the bytes can hold, or a record's
    ///   length is shorter than its fields or runs past the end.
    public static func list(decoding bytes: [UInt8]) throws(ViewfinderError) -> [CanonEOSObjectEntry] {
        var reader = PTPDataReader(bytes, reading: "the answer to EOS GetObjectInfoEx")
        guard !reader.isAtEnd else { return [] }
        let count = Int(try reader.read(UInt32.self))
        guard count <= reader.remainingCount / (4 + recordLength) else {
            throw reader.malformed("it claims \(count) records, but \(reader.remainingCount) bytes are left")
        }
        var entries: [CanonEOSObjectEntry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let length = Int(try reader.read(UInt32.self))
            guard length >= 4 + recordLength else {
                throw reader.malformed("a record of \(length) bytes is shorter than its fields")
            }
            entries.append(CanonEOSObjectEntry(record: try reader.readBytes(length - 4)))
        }
        return entries
    }

    /// Reads one record's fields from its bytes after its length, at least ``recordLength`` of them.
    private init(record: [UInt8]) {
        func field<Integer: FixedWidthInteger>(_ type: Integer.Type, at offset: Int) -> Integer {
            record.withUnsafeBytes { Integer(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: type)) }
        }
        let name = record[Offset.filename..<Offset.filename + Offset.filenameLength].prefix { $0 != 0 }
        self.init(
            handle: field(UInt32.self, at: Offset.handle), storageID: field(UInt32.self, at: Offset.storageID),
            format: PTPObjectFormatCode(rawValue: field(UInt16.self, at: Offset.format)),
            flags: field(UInt8.self, at: Offset.flags), size: field(UInt32.self, at: Offset.size),
            filename: String(decoding: name, as: UTF8.self), time: field(UInt32.self, at: Offset.time))
    }

    /// The answer to GetObjectInfoEx listing `entries` in `parent`, as a camera sends it.
    public static func encoded(_ entries: [CanonEOSObjectEntry], parent: UInt32) -> [UInt8] {
        var writer = PTPDataWriter()
        writer.append(UInt32(entries.count))
        for entry in entries {
            var record = [UInt8](repeating: 0, count: recordLength)
            func put<Integer: FixedWidthInteger>(_ value: Integer, at offset: Int) {
                withUnsafeBytes(of: value.littleEndian) { record.replaceSubrange(offset..<offset + $0.count, with: $0) }
            }
            put(entry.handle, at: Offset.handle)
            put(entry.storageID, at: Offset.storageID)
            put(entry.format.rawValue, at: Offset.format)
            put(entry.flags, at: Offset.flags)
            put(entry.size, at: Offset.size)
            put(parent, at: Offset.parent)
            let name = Array(entry.filename.utf8.prefix(Offset.filenameLength - 1))
            record.replaceSubrange(Offset.filename..<Offset.filename + name.count, with: name)
            put(entry.time, at: Offset.time)
            writer.append(UInt32(4 + recordLength))
            writer.append(bytes: record)
        }
        return writer.bytes
    }

    /// The ObjectInfo the entry gives for an object in `parent` (0 at the top of the storage); its dates are the
    /// entry's time on the camera's clock, as `YYYYMMDDThhmmss`.
    public func objectInfo(parent: UInt32) -> PTPObjectInfo {
        let date = PTPDate.string(secondsSince1970: Int(time))
        return PTPObjectInfo(
            storageID: storageID, format: format, protectionStatus: flags & 1 == 0 ? 0 : 1, compressedSize: size,
            parentObject: parent, associationType: format == .association ? 1 : 0, filename: filename,
            captureDate: date, modificationDate: date)
    }
}
