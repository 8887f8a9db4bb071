import ViewfinderCore

/// One property as Sony's GetAllExtDevicePropInfo (``PTPOperationCode/sonyGetAllExtDevicePropInfo``) describes it:
/// its type, whether it can be set and is enabled, its default and current values, and the values it takes.
///
/// The answer is `[u32 count][u32 0]` and then one record per property:
///
/// | field | size |
/// | --- | --- |
/// | property code | u16 |
/// | data type | u16 (PTP's codes; `0xFFFF` a string) |
/// | get/set | u8: 1 settable, 0 read-only; 0x80 and above a control |
/// | is enabled | u8: 0 greyed out, 1 enabled, 2 shown only |
/// | default value, current value | of the data type |
/// | form | u8: 0 none, 1 a range (minimum, maximum, step), 2 an enumeration (u16 count, values) |
///
/// Bodies from 2020 on follow an enumeration with a second list, `[u16 count][values]`: the first then holds the
/// values the computer may set now (none while the property is greyed out), the second every value the body can
/// show. ``decodeAll(_:)`` reads both layouts, telling them apart as libgphoto2 does: a second list's count is
/// below 0x200, where the next record's property code is not (Sony's codes are 0x5000 and above).
public struct PTPSonyProperty: Hashable, Sendable {
    /// The values a property takes.
    public typealias Form = PTPDevicePropertyDescription.Form

    /// The property.
    public var code: PTPDevicePropertyCode
    /// The type of its values.
    public var dataType: PTPDataType
    /// 1 when the computer may set it, 0 when it may not; 0x80 and above for a control (a button, a notch).
    public var getSet: UInt8
    /// 0 when greyed out, 1 when enabled, 2 when the camera only shows it.
    public var isEnabled: UInt8
    /// The default value.
    public var defaultValue: PTPValue
    /// The current value.
    public var currentValue: PTPValue
    /// The values it takes: in the two-list layout, those the computer may set now.
    public var form: Form
    /// The second list of the two-list layout: every value the camera can show; `nil` in the one-list layout.
    public var reportableValues: [PTPValue]?

    /// Creates a record.
    public init(
        code: PTPDevicePropertyCode, dataType: PTPDataType, getSet: UInt8 = 1, isEnabled: UInt8 = 1,
        defaultValue: PTPValue, currentValue: PTPValue, form: Form, reportableValues: [PTPValue]? = nil
    ) {
        self.code = code
        self.dataType = dataType
        self.getSet = getSet
        self.isEnabled = isEnabled
        self.defaultValue = defaultValue
        self.currentValue = currentValue
        self.form = form
        self.reportableValues = reportableValues
    }

    /// Whether the record is a control (a button or a notch to move), not a value.
    public var isControl: Bool { getSet >= 0x80 }

    /// The largest count of a second list: anything from here on is the next record's property code.
    static let secondListLimit = 0x200

    /// Reads the records of a GetAllExtDevicePropInfo answer, in either layout.
    ///
    /// The count in the header is not trusted: records are read until the data ends, as libgphoto2 reads them. A
    /// record that cannot be read (a data type without a size, a form Sony does not use, a value cut short) ends the
    /// list, and the records before it are kept: one property a newer body describes in a way Viewfinder does not
    /// know costs that property and those after it, not all of them.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the data is shorter than its header, or when not even
    ///   its first record can be read.
    public static func decodeAll(_ data: [UInt8]) throws(ViewfinderError) -> [PTPSonyProperty] {
        var reader = PTPDataReader(data, reading: "the camera's GetAllExtDevicePropInfo answer")
        _ = try reader.read(UInt32.self)
        _ = try reader.read(UInt32.self)
        var properties: [PTPSonyProperty] = []
        while !reader.isAtEnd {
            var attempt = reader
            do {
                properties.append(try PTPSonyProperty(reading: &attempt))
            } catch {
                guard !properties.isEmpty else { throw error }
                break
            }
            reader = attempt
        }
        return properties
    }

    /// Reads one record.
    init(reading reader: inout PTPDataReader) throws(ViewfinderError) {
        code = PTPDevicePropertyCode(rawValue: try reader.read(UInt16.self))
        dataType = PTPDataType(rawValue: try reader.read(UInt16.self))
        getSet = try reader.read(UInt8.self)
        isEnabled = try reader.read(UInt8.self)
        defaultValue = try reader.readValue(of: dataType)
        currentValue = try reader.readValue(of: dataType)
        reportableValues = nil
        let formFlag = try reader.read(UInt8.self)
        switch formFlag {
        case 0:
            form = .none
        case 1:
            guard dataType.integerSize != nil else {
                throw reader.malformed("a range form on \(dataType) values of property \(code)")
            }
            form = .range(
                minimum: try reader.readValue(of: dataType), maximum: try reader.readValue(of: dataType),
                step: try reader.readValue(of: dataType))
        case 2:
            form = .enumeration(try Self.readList(&reader, of: dataType))
            if reader.remainingCount >= 2, Self.peekUInt16(reader) < Self.secondListLimit {
                reportableValues = try Self.readList(&reader, of: dataType)
            }
        default:
            throw reader.malformed("form flag \(formFlag) of property \(code) is not one Sony uses")
        }
    }

    /// Reads `[u16 count][values]`, checking the count against the bytes left before it allocates.
    private static func readList(_ reader: inout PTPDataReader, of type: PTPDataType) throws(ViewfinderError)
        -> [PTPValue]
    {
        let count = Int(try reader.read(UInt16.self))
        guard count <= reader.remainingCount / (type.integerSize ?? 1) else {
            throw reader.malformed("a list claims \(count) values, but \(reader.remainingCount) bytes are left")
        }
        var values: [PTPValue] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            values.append(try reader.readValue(of: type))
        }
        return values
    }

    /// The next two bytes as a little-endian integer, without reading them.
    private static func peekUInt16(_ reader: PTPDataReader) -> Int {
        Int(reader.bytes[reader.offset]) | Int(reader.bytes[reader.offset + 1]) << 8
    }

    /// A GetAllExtDevicePropInfo answer holding `properties`, as a camera sends it: each enumeration followed by
    /// its second list where the record has one.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` when a value is not of its record's data type, a second list
    ///   has 0x200 values or more (a reader would take its count for a property code), or a record has a second list
    ///   without an enumeration.
    public static func encodeAll(_ properties: [PTPSonyProperty]) throws(ViewfinderError) -> [UInt8] {
        var writer = PTPDataWriter(capacity: 64 * properties.count + 8)
        writer.append(UInt32(properties.count))
        writer.append(UInt32(0))
        for property in properties {
            try property.encode(into: &writer)
        }
        return writer.bytes
    }

    private func encode(into writer: inout PTPDataWriter) throws(ViewfinderError) {
        var values = [defaultValue, currentValue]
        switch form {
        case .none: break
        case .range(let minimum, let maximum, let step): values += [minimum, maximum, step]
        case .enumeration(let list): values += list
        }
        values += reportableValues ?? []
        if let wrong = values.first(where: { $0.dataType != dataType }) {
            throw ViewfinderError(
                .invalidArgument, "property \(code) holds \(dataType) values, but \(wrong) is \(wrong.dataType)")
        }
        writer.append(code.rawValue)
        writer.append(dataType.rawValue)
        writer.append(getSet)
        writer.append(isEnabled)
        try writer.append(value: defaultValue)
        try writer.append(value: currentValue)
        switch form {
        case .none:
            guard reportableValues == nil else {
                throw ViewfinderError(.invalidArgument, "property \(code) has a second list without an enumeration")
            }
            writer.append(UInt8(0))
        case .range(let minimum, let maximum, let step):
            guard reportableValues == nil, dataType.integerSize != nil else {
                throw ViewfinderError(
                    .invalidArgument, "property \(code) has a range of \(dataType) values or a second list with it")
            }
            writer.append(UInt8(1))
            try writer.append(value: minimum)
            try writer.append(value: maximum)
            try writer.append(value: step)
        case .enumeration(let list):
            writer.append(UInt8(2))
            try Self.write(list, into: &writer, limit: Int(UInt16.max))
            if let second = reportableValues {
                try Self.write(second, into: &writer, limit: Self.secondListLimit - 1)
            }
        }
    }

    private static func write(_ list: [PTPValue], into writer: inout PTPDataWriter, limit: Int)
        throws(ViewfinderError)
    {
        guard list.count <= limit else {
            throw ViewfinderError(
                .invalidArgument, "a list of \(list.count) values is longer than the \(limit) allowed")
        }
        writer.append(UInt16(list.count))
        for value in list {
            try writer.append(value: value)
        }
    }
}
