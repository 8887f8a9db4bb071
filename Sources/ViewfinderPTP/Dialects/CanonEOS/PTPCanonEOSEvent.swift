import ViewfinderCore

/// One record of what EOS GetEvent returns: a property's new value or values, a new file, a camera state.
///
/// The data is a run of records, each `[u32 size][u32 type][payload]`, ended by the record `{8, 0}`.
/// ``decode(_:)`` reads it without trusting a single length: every size and count is checked against the bytes
/// there, so a camera's malformed data is a clear error and never a large allocation. ``encode(_:)`` writes the
/// same form, for the simulated camera.
public enum PTPCanonEOSEvent: Hashable, Sendable {
    /// A property's value, as the camera sent it: four bytes, little-endian, for numbers (a UINT16 in the first
    /// two), a NUL-terminated string for text.
    case propertyChanged(PTPDevicePropertyCode, value: [UInt8])
    /// The values a property accepts now, each as the camera sends it in a four-byte slot (an image format in the
    /// 16-bit form libgphoto2 condenses its packed one to); empty when it accepts none.
    case allowedValuesChanged(PTPDevicePropertyCode, values: [UInt32])
    /// A file written to the card.
    case objectAdded(
        handle: UInt32, storageID: UInt32, format: PTPObjectFormatCode, size: UInt32, parent: UInt32, name: String)
    /// A picture the camera holds for the computer to read, when pictures go to the computer; the computer ends
    /// it with ``PTPOperationCode/canonEOSTransferComplete``.
    case objectTransferRequested(handle: UInt32, format: PTPObjectFormatCode, size: UInt32, name: String)
    /// A file removed from the card.
    case objectRemoved(handle: UInt32)
    /// The camera's state: 1 while it is busy.
    case cameraStatus(UInt32)
    /// A record Viewfinder does not read, kept by its type.
    case other(type: UInt32, payload: [UInt8])

    /// The record types.
    enum RecordType {
        static let objectAdded: UInt32 = 0xC181
        static let objectRemoved: UInt32 = 0xC182
        static let objectTransferRequested: UInt32 = 0xC186
        static let propertyChanged: UInt32 = 0xC189
        static let allowedValuesChanged: UInt32 = 0xC18A
        static let cameraStatus: UInt32 = 0xC18B
    }

    /// The form of an allowed-values record that lists values in four-byte slots, the only one cameras use for the
    /// properties Viewfinder reads.
    static let enumerationForm: UInt32 = 3

    /// Reads the records of GetEvent data, up to the `{8, 0}` record or the end of the data.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a record whose size is below 8 or runs past the data,
    ///   or whose fields do not fit in it.
    public static func decode(_ data: [UInt8]) throws(ViewfinderError) -> [PTPCanonEOSEvent] {
        var events: [PTPCanonEOSEvent] = []
        var offset = 0
        while data.count - offset >= 8 {
            let size = Int(data.littleEndianUInt32(at: offset))
            let type = data.littleEndianUInt32(at: offset + 4)
            if size == 8, type == 0 { break }
            guard size >= 8, size <= data.count - offset else {
                throw ViewfinderError(
                    .malformedData,
                    "the camera's event record at byte \(offset) of \(data.count) claims \(size) bytes, which the "
                        + "data does not hold")
            }
            let payload = Array(data[(offset + 8)..<(offset + size)])
            events.append(try record(type: type, payload: payload, at: offset))
            offset += size
        }
        return events
    }

    private static func record(type: UInt32, payload: [UInt8], at offset: Int) throws(ViewfinderError)
        -> PTPCanonEOSEvent
    {
        func need(_ count: Int, _ what: String) throws(ViewfinderError) {
            guard payload.count >= count else {
                throw ViewfinderError(
                    .malformedData,
                    "the camera's \(what) record at byte \(offset) has \(payload.count) bytes, fewer than its "
                        + "\(count)")
            }
        }
        switch type {
        case RecordType.propertyChanged:
            try need(5, "property value")
            return .propertyChanged(property(at: 0, in: payload), value: Array(payload[4...]))
        case RecordType.allowedValuesChanged:
            try need(12, "allowed values")
            let code = property(at: 0, in: payload)
            guard payload.littleEndianUInt32(at: 4) == enumerationForm else {
                return .other(type: type, payload: payload)
            }
            let count = Int(payload.littleEndianUInt32(at: 8))
            if CanonEOSImageFormat.codes.contains(code.rawValue) {
                return .allowedValuesChanged(code, values: try imageFormats(count, in: payload, at: offset))
            }
            guard count <= (payload.count - 12) / 4 else {
                throw ViewfinderError(
                    .malformedData,
                    "the camera's allowed values record at byte \(offset) claims \(count) values in "
                        + "\(payload.count - 12) bytes")
            }
            return .allowedValuesChanged(code, values: (0..<count).map { payload.littleEndianUInt32(at: 12 + 4 * $0) })
        case RecordType.objectAdded:
            try need(0x21, "new file")
            return .objectAdded(
                handle: payload.littleEndianUInt32(at: 0), storageID: payload.littleEndianUInt32(at: 4),
                format: PTPObjectFormatCode(rawValue: UInt16(truncatingIfNeeded: payload.littleEndianUInt32(at: 8))),
                size: payload.littleEndianUInt32(at: 0x14), parent: payload.littleEndianUInt32(at: 0x18),
                name: string(from: 0x20, in: payload))
        case RecordType.objectTransferRequested:
            try need(0x15, "transfer request")
            return .objectTransferRequested(
                handle: payload.littleEndianUInt32(at: 0),
                format: PTPObjectFormatCode(rawValue: UInt16(truncatingIfNeeded: payload.littleEndianUInt32(at: 4))),
                size: payload.littleEndianUInt32(at: 0x0C), name: string(from: 0x14, in: payload))
        case RecordType.objectRemoved:
            try need(4, "removed file")
            return .objectRemoved(handle: payload.littleEndianUInt32(at: 0))
        case RecordType.cameraStatus:
            try need(4, "camera status")
            return .cameraStatus(payload.littleEndianUInt32(at: 0))
        default:
            return .other(type: type, payload: payload)
        }
    }

    /// The `count` packed image formats from byte 12 of an allowed values record, condensed.
    private static func imageFormats(_ count: Int, in payload: [UInt8], at offset: Int) throws(ViewfinderError)
        -> [UInt32]
    {
        // Each format takes at least 20 bytes, which bounds the count before anything is kept.
        guard count <= (payload.count - 12) / 20 else {
            throw ViewfinderError(
                .malformedData,
                "the camera's allowed image formats record at byte \(offset) claims \(count) formats in "
                    + "\(payload.count - 12) bytes")
        }
        var position = 12
        var formats: [UInt32] = []
        for _ in 0..<count {
            guard let format = CanonEOSImageFormat.condense(payload, at: &position) else {
                throw ViewfinderError(
                    .malformedData,
                    "the camera's allowed image formats record at byte \(offset) holds a format out of form at its "
                        + "byte \(position)")
            }
            formats.append(UInt32(format))
        }
        return formats
    }

    private static func property(at offset: Int, in payload: [UInt8]) -> PTPDevicePropertyCode {
        PTPDevicePropertyCode(rawValue: UInt16(truncatingIfNeeded: payload.littleEndianUInt32(at: offset)))
    }

    /// The NUL-terminated ASCII from `offset`, or to the end of the record without a NUL.
    private static func string(from offset: Int, in payload: [UInt8]) -> String {
        let bytes = payload[offset...].prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The records as GetEvent data, ended by the `{8, 0}` record.
    public static func encode(_ events: [PTPCanonEOSEvent]) -> [UInt8] {
        var writer = PTPDataWriter(capacity: 64 * events.count + 8)
        for event in events {
            var body = PTPDataWriter(capacity: 64)
            let type: UInt32
            switch event {
            case .propertyChanged(let code, let value):
                type = RecordType.propertyChanged
                body.append(UInt32(code.rawValue))
                body.append(bytes: value)
            case .allowedValuesChanged(let code, let values):
                type = RecordType.allowedValuesChanged
                body.append(UInt32(code.rawValue))
                body.append(enumerationForm)
                body.append(UInt32(values.count))
                for value in values {
                    if CanonEOSImageFormat.codes.contains(code.rawValue) {
                        body.append(bytes: CanonEOSImageFormat.pack(UInt16(truncatingIfNeeded: value)))
                    } else {
                        body.append(value)
                    }
                }
            case .objectAdded(let handle, let storageID, let format, let size, let parent, let name):
                type = RecordType.objectAdded
                body.append(handle)
                body.append(storageID)
                body.append(UInt32(format.rawValue))
                body.append(bytes: [UInt8](repeating: 0, count: 8))
                body.append(size)
                body.append(parent)
                body.append(bytes: [UInt8](repeating: 0, count: 4))
                body.append(bytes: Array(name.utf8) + [0])
            case .objectTransferRequested(let handle, let format, let size, let name):
                type = RecordType.objectTransferRequested
                body.append(handle)
                body.append(UInt32(format.rawValue))
                body.append(bytes: [UInt8](repeating: 0, count: 4))
                body.append(size)
                body.append(bytes: [UInt8](repeating: 0, count: 4))
                body.append(bytes: Array(name.utf8) + [0])
            case .objectRemoved(let handle):
                type = RecordType.objectRemoved
                body.append(handle)
            case .cameraStatus(let status):
                type = RecordType.cameraStatus
                body.append(status)
            case .other(let otherType, let payload):
                type = otherType
                body.append(bytes: payload)
            }
            writer.append(UInt32(8 + body.bytes.count))
            writer.append(type)
            writer.append(bytes: body.bytes)
        }
        writer.append(UInt32(8))
        writer.append(UInt32(0))
        return writer.bytes
    }
}

extension Array where Element == UInt8 {
    /// The little-endian 32-bit integer at `offset`, which the caller has checked is in the array.
    func littleEndianUInt32(at offset: Int) -> UInt32 {
        withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }
}
