import ViewfinderCore

/// The data type of a property value, as PTP codes it.
public struct PTPDataType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as it travels on the wire.
    public var rawValue: UInt16

    /// Creates a data type from its wire code.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// A signed 8-bit integer.
    public static let int8 = PTPDataType(rawValue: 0x0001)
    /// An unsigned 8-bit integer.
    public static let uint8 = PTPDataType(rawValue: 0x0002)
    /// A signed 16-bit integer.
    public static let int16 = PTPDataType(rawValue: 0x0003)
    /// An unsigned 16-bit integer.
    public static let uint16 = PTPDataType(rawValue: 0x0004)
    /// A signed 32-bit integer.
    public static let int32 = PTPDataType(rawValue: 0x0005)
    /// An unsigned 32-bit integer.
    public static let uint32 = PTPDataType(rawValue: 0x0006)
    /// A signed 64-bit integer.
    public static let int64 = PTPDataType(rawValue: 0x0007)
    /// An unsigned 64-bit integer.
    public static let uint64 = PTPDataType(rawValue: 0x0008)
    /// A PTP string.
    public static let string = PTPDataType(rawValue: 0xFFFF)

    /// An array of `element`, which must be an integer type.
    public static func array(of element: PTPDataType) -> PTPDataType {
        PTPDataType(rawValue: 0x4000 | element.rawValue)
    }

    /// Whether this is an array type.
    public var isArray: Bool { rawValue & 0xF000 == 0x4000 }

    /// The element type of an array type, or the type itself.
    public var elementType: PTPDataType { isArray ? PTPDataType(rawValue: rawValue & 0x0FFF) : self }

    /// The size in bytes of one integer of this type, or `nil` for strings, arrays and unknown types.
    public var integerSize: Int? {
        switch rawValue {
        case 0x0001, 0x0002: 1
        case 0x0003, 0x0004: 2
        case 0x0005, 0x0006: 4
        case 0x0007, 0x0008: 8
        default: nil
        }
    }

    /// Every integer a value of this type can hold, or `nil` for strings, arrays and unknown types; 64-bit types
    /// end where a 64-bit signed integer does.
    public var integerBounds: ClosedRange<Int64>? {
        switch rawValue {
        case 0x0001: Int64(Int8.min)...Int64(Int8.max)
        case 0x0002: 0...Int64(UInt8.max)
        case 0x0003: Int64(Int16.min)...Int64(Int16.max)
        case 0x0004: 0...Int64(UInt16.max)
        case 0x0005: Int64(Int32.min)...Int64(Int32.max)
        case 0x0006: 0...Int64(UInt32.max)
        case 0x0007: Int64.min...Int64.max
        case 0x0008: 0...Int64.max
        default: nil
        }
    }

    /// The type's name, such as `UINT16` or `AUINT8`.
    public var description: String {
        let names: [UInt16: String] = [
            1: "INT8", 2: "UINT8", 3: "INT16", 4: "UINT16", 5: "INT32", 6: "UINT32", 7: "INT64", 8: "UINT64",
            0xFFFF: "STR",
        ]
        if isArray, let name = names[elementType.rawValue] {
            return "A" + name
        }
        return names[rawValue] ?? PTPCodeName.hex(rawValue)
    }
}

/// A typed property value: an integer, an array of integers or a string.
public enum PTPValue: Hashable, Sendable, CustomStringConvertible {
    /// A signed 8-bit integer.
    case int8(Int8)
    /// An unsigned 8-bit integer.
    case uint8(UInt8)
    /// A signed 16-bit integer.
    case int16(Int16)
    /// An unsigned 16-bit integer.
    case uint16(UInt16)
    /// A signed 32-bit integer.
    case int32(Int32)
    /// An unsigned 32-bit integer.
    case uint32(UInt32)
    /// A signed 64-bit integer.
    case int64(Int64)
    /// An unsigned 64-bit integer.
    case uint64(UInt64)
    /// An array of integers of one element type.
    case array(PTPDataType, [PTPValue])
    /// A string.
    case string(String)

    /// The value's data type.
    public var dataType: PTPDataType {
        switch self {
        case .int8: .int8
        case .uint8: .uint8
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .array(let element, _): .array(of: element)
        case .string: .string
        }
    }

    /// The value as a signed integer wide enough for every integer type but `uint64` above `Int64.max`.
    public var integerValue: Int64? {
        switch self {
        case .int8(let value): Int64(value)
        case .uint8(let value): Int64(value)
        case .int16(let value): Int64(value)
        case .uint16(let value): Int64(value)
        case .int32(let value): Int64(value)
        case .uint32(let value): Int64(value)
        case .int64(let value): value
        case .uint64(let value): Int64(exactly: value)
        case .array, .string: nil
        }
    }

    /// Creates an integer value of `type` from `value`, or `nil` when it does not fit or `type` is not an integer.
    public init?(integer value: Int64, as type: PTPDataType) {
        let made: PTPValue?
        switch type {
        case .int8: made = Int8(exactly: value).map(PTPValue.int8)
        case .uint8: made = UInt8(exactly: value).map(PTPValue.uint8)
        case .int16: made = Int16(exactly: value).map(PTPValue.int16)
        case .uint16: made = UInt16(exactly: value).map(PTPValue.uint16)
        case .int32: made = Int32(exactly: value).map(PTPValue.int32)
        case .uint32: made = UInt32(exactly: value).map(PTPValue.uint32)
        case .int64: made = .int64(value)
        case .uint64: made = UInt64(exactly: value).map(PTPValue.uint64)
        default: made = nil
        }
        guard let made else { return nil }
        self = made
    }

    /// The value for people: the number, the quoted string, or the bracketed elements.
    public var description: String {
        switch self {
        case .string(let string): "\"\(string)\""
        case .array(_, let elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .uint64(let value): String(value)
        default: String(integerValue ?? 0)
        }
    }
}

extension PTPDataReader {
    /// Reads a value of `type`.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the bytes run out or the type is not one
    ///   PTP defines for property values.
    public mutating func readValue(of type: PTPDataType) throws(ViewfinderError) -> PTPValue {
        switch type {
        case .int8: return .int8(try read(Int8.self))
        case .uint8: return .uint8(try read(UInt8.self))
        case .int16: return .int16(try read(Int16.self))
        case .uint16: return .uint16(try read(UInt16.self))
        case .int32: return .int32(try read(Int32.self))
        case .uint32: return .uint32(try read(UInt32.self))
        case .int64: return .int64(try read(Int64.self))
        case .uint64: return .uint64(try read(UInt64.self))
        case .string: return .string(try readString())
        default:
            let element = type.elementType
            guard type.isArray, let size = element.integerSize else {
                throw malformed("data type \(type) is not one this reader knows")
            }
            let elements = try readArray(elementSize: size) { (reader) throws(ViewfinderError) in
                try reader.readValue(of: element)
            }
            return .array(element, elements)
        }
    }
}

extension PTPDataWriter {
    /// Appends a value in its wire form.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for an array whose elements are not all of its
    ///   element type, or a string PTP cannot carry.
    public mutating func append(value: PTPValue) throws(ViewfinderError) {
        switch value {
        case .int8(let x): append(x)
        case .uint8(let x): append(x)
        case .int16(let x): append(x)
        case .uint16(let x): append(x)
        case .int32(let x): append(x)
        case .uint32(let x): append(x)
        case .int64(let x): append(x)
        case .uint64(let x): append(x)
        case .string(let string): try append(string: string)
        case .array(let element, let elements):
            guard element.integerSize != nil, elements.allSatisfy({ $0.dataType == element }) else {
                throw ViewfinderError(.invalidArgument, "an array of \(element) must hold only \(element) integers")
            }
            append(UInt32(elements.count))
            for item in elements {
                try append(value: item)
            }
        }
    }
}
