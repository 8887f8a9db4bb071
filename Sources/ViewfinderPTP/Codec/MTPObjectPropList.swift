import ViewfinderCore

/// MTP's ObjectPropList dataset: properties of many objects, each element an object's handle, a property, its data
/// type and its value, as ``PTPOperationCode/getObjectPropList`` returns them.
///
/// One answer describes a whole folder, where ObjectInfo takes a request per object:
///
/// ```swift
/// let list = try MTPObjectPropList(decoding: data)
/// for object in list.objects {
///     print(object.handle, object.info?.filename ?? "not described")
/// }
/// ```
public struct MTPObjectPropList: Hashable, Sendable {
    /// One object's value of one property.
    public struct Element: Hashable, Sendable {
        /// The object.
        public var handle: UInt32
        /// The property.
        public var property: PTPObjectPropertyCode
        /// The value, of the data type it travelled with.
        public var value: PTPValue

        /// Creates an element.
        public init(handle: UInt32, property: PTPObjectPropertyCode, value: PTPValue) {
            self.handle = handle
            self.property = property
            self.value = value
        }
    }

    /// What the list says of one object.
    public struct Object: Hashable, Sendable {
        /// The object.
        public var handle: UInt32
        /// The object's ObjectInfo as its properties give it; `nil` when they leave out its storage, its format or
        /// its file name.
        public var info: PTPObjectInfo?
        /// The object's 64-bit size, when the list gives ObjectSize.
        public var size: UInt64?
    }

    /// The elements, in the camera's order.
    public var elements: [Element]

    /// Creates a list of `elements`.
    public init(elements: [Element]) {
        self.elements = elements
    }

    /// The fewest bytes an element takes: handle, property, data type and a one-byte value.
    private static let smallestElement = 9

    /// Decodes the dataset: a 32-bit element count, then the elements.
    ///
    /// Values of the 128-bit types (such as an object's persistent unique identifier, which cameras include when
    /// asked for every property) are skipped: Viewfinder reads none of them.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the bytes run out, a count exceeds what is left, or a
    ///   value has a data type PTP does not define.
    public init(decoding bytes: [UInt8]) throws(ViewfinderError) {
        var reader = PTPDataReader(bytes, reading: "ObjectPropList")
        let count = Int(try reader.read(UInt32.self))
        guard count <= reader.remainingCount / Self.smallestElement else {
            throw reader.malformed("it claims \(count) elements, but \(reader.remainingCount) bytes are left")
        }
        var elements: [Element] = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            let handle = try reader.read(UInt32.self)
            let property = PTPObjectPropertyCode(rawValue: try reader.read(UInt16.self))
            let type = PTPDataType(rawValue: try reader.read(UInt16.self))
            if type.elementType.rawValue == 0x0009 || type.elementType.rawValue == 0x000A {
                let values = type.isArray ? Int(try reader.read(UInt32.self)) : 1
                guard values <= reader.remainingCount / 16 else {
                    throw reader.malformed("\(values) 128-bit values need more than the \(reader.remainingCount) left")
                }
                _ = try reader.readBytes(16 * values)
                continue
            }
            elements.append(Element(handle: handle, property: property, value: try reader.readValue(of: type)))
        }
        try reader.expectEnd()
        self.elements = elements
    }

    /// The dataset's bytes.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for a value PTP cannot carry.
    public func encoded() throws(ViewfinderError) -> [UInt8] {
        var writer = PTPDataWriter()
        writer.append(UInt32(elements.count))
        for element in elements {
            writer.append(element.handle)
            writer.append(element.property.rawValue)
            writer.append(element.value.dataType.rawValue)
            try writer.append(value: element.value)
        }
        return writer.bytes
    }

    /// The objects the list describes, in the order they first appear in it.
    public var objects: [Object] {
        var order: [UInt32] = []
        var properties: [UInt32: [PTPObjectPropertyCode: PTPValue]] = [:]
        for element in elements {
            if properties[element.handle] == nil { order.append(element.handle) }
            properties[element.handle, default: [:]][element.property] = element.value
        }
        return order.map { handle in
            let values = properties[handle] ?? [:]
            func integer(_ property: PTPObjectPropertyCode) -> Int64? { values[property]?.integerValue }
            func text(_ property: PTPObjectPropertyCode) -> String? {
                guard case .string(let text) = values[property] else { return nil }
                return text
            }
            let size = integer(.objectSize).map { UInt64(max($0, 0)) }
            var info: PTPObjectInfo?
            if let storage = integer(.storageID), let format = integer(.objectFormat),
                let name = text(.objectFileName)
            {
                let objectFormat = PTPObjectFormatCode(rawValue: UInt16(truncatingIfNeeded: format))
                info = PTPObjectInfo(
                    storageID: UInt32(truncatingIfNeeded: storage), format: objectFormat,
                    protectionStatus: UInt16(truncatingIfNeeded: integer(.protectionStatus) ?? 0),
                    compressedSize: UInt32(min(size ?? 0, 0xFFFF_FFFF)),
                    parentObject: UInt32(truncatingIfNeeded: integer(.parentObject) ?? 0),
                    associationType: objectFormat == .association ? 1 : 0, filename: name,
                    captureDate: text(.dateCreated) ?? text(.dateModified) ?? "",
                    modificationDate: text(.dateModified) ?? "")
            }
            return Object(handle: handle, info: info, size: size)
        }
    }
}
