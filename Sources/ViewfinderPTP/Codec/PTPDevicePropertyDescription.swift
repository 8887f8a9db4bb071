import ViewfinderCore

/// A property's description: its type, whether it can be set, its default and current values, and which values
/// it accepts.
///
/// Returned by ``PTPOperationCode/getDevicePropDesc``.
public struct PTPDevicePropertyDescription: Hashable, Sendable {
    /// The values a property accepts.
    public enum Form: Hashable, Sendable {
        /// Any value of the property's type.
        case none
        /// Values from `minimum` to `maximum` in steps of `step`.
        case range(minimum: PTPValue, maximum: PTPValue, step: PTPValue)
        /// One of these values.
        case enumeration([PTPValue])

        /// Whether `value` is allowed by this form.
        public func allows(_ value: PTPValue) -> Bool {
            switch self {
            case .none:
                return true
            case .enumeration(let values):
                return values.contains(value)
            case .range(let minimum, let maximum, let step):
                guard let x = value.integerValue, let low = minimum.integerValue, let high = maximum.integerValue,
                    let stride = step.integerValue
                else { return false }
                guard x >= low, x <= high else { return false }
                // The distance from the minimum fits in 64 unsigned bits even when it does not fit in 63.
                return stride <= 0 || UInt64(bitPattern: x &- low) % UInt64(stride) == 0
            }
        }
    }

    /// The property.
    public var code: PTPDevicePropertyCode
    /// The type of its values.
    public var dataType: PTPDataType
    /// Whether a client can set it now.
    public var isSettable: Bool
    /// The factory default value.
    public var factoryDefaultValue: PTPValue
    /// The current value.
    public var currentValue: PTPValue
    /// The values it accepts.
    public var form: Form

    /// Creates a description.
    public init(
        code: PTPDevicePropertyCode, dataType: PTPDataType, isSettable: Bool, factoryDefaultValue: PTPValue,
        currentValue: PTPValue, form: Form
    ) {
        self.code = code
        self.dataType = dataType
        self.isSettable = isSettable
        self.factoryDefaultValue = factoryDefaultValue
        self.currentValue = currentValue
        self.form = form
    }

    /// Decodes the dataset.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the bytes are not a DevicePropDesc dataset,
    ///   including a form PTP does not define or a range on a type that is not an integer.
    public init(decoding bytes: [UInt8]) throws(ViewfinderError) {
        var reader = PTPDataReader(bytes, reading: "DevicePropDesc")
        code = PTPDevicePropertyCode(rawValue: try reader.read(UInt16.self))
        dataType = PTPDataType(rawValue: try reader.read(UInt16.self))
        let getSet = try reader.read(UInt8.self)
        guard getSet <= 1 else {
            throw reader.malformed("the get/set flag is \(getSet), not 0 or 1")
        }
        isSettable = getSet == 1
        factoryDefaultValue = try reader.readValue(of: dataType)
        currentValue = try reader.readValue(of: dataType)
        let formFlag = try reader.read(UInt8.self)
        switch formFlag {
        case 0:
            form = .none
        case 1:
            guard dataType.integerSize != nil else {
                throw reader.malformed("a range form on \(dataType) values")
            }
            let minimum = try reader.readValue(of: dataType)
            let maximum = try reader.readValue(of: dataType)
            let step = try reader.readValue(of: dataType)
            form = .range(minimum: minimum, maximum: maximum, step: step)
        case 2:
            let count = Int(try reader.read(UInt16.self))
            guard count <= reader.remainingCount / (dataType.integerSize ?? 1) else {
                throw reader.malformed(
                    "an enumeration claims \(count) values, but \(reader.remainingCount) bytes are left")
            }
            var values: [PTPValue] = []
            values.reserveCapacity(count)
            for _ in 0..<count {
                values.append(try reader.readValue(of: dataType))
            }
            form = .enumeration(values)
        default:
            throw reader.malformed("form flag \(formFlag) is not one PTP defines")
        }
    }

    /// The dataset's wire form.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` when a value is not of ``dataType``.
    public func encoded() throws(ViewfinderError) -> [UInt8] {
        var values = [factoryDefaultValue, currentValue]
        switch form {
        case .none: break
        case .range(let minimum, let maximum, let step): values += [minimum, maximum, step]
        case .enumeration(let list): values += list
        }
        if let wrong = values.first(where: { $0.dataType != dataType }) {
            throw ViewfinderError(
                .invalidArgument, "property \(code) holds \(dataType) values, but \(wrong) is \(wrong.dataType)")
        }
        var writer = PTPDataWriter(capacity: 64)
        writer.append(code.rawValue)
        writer.append(dataType.rawValue)
        writer.append(UInt8(isSettable ? 1 : 0))
        try writer.append(value: factoryDefaultValue)
        try writer.append(value: currentValue)
        switch form {
        case .none:
            writer.append(UInt8(0))
        case .range(let minimum, let maximum, let step):
            writer.append(UInt8(1))
            try writer.append(value: minimum)
            try writer.append(value: maximum)
            try writer.append(value: step)
        case .enumeration(let list):
            guard list.count <= Int(UInt16.max) else {
                throw ViewfinderError(.invalidArgument, "an enumeration holds at most 65535 values")
            }
            writer.append(UInt8(2))
            writer.append(UInt16(list.count))
            for value in list {
                try writer.append(value: value)
            }
        }
        return writer.bytes
    }
}
