import ViewfinderCore

/// What a UPnP device description (the XML at an SSDP LOCATION) says about the device: its maker, model, names
/// and UDN, and the services it offers.
///
/// The reader is a single pass over at most ``maximumLength`` bytes that keeps only these fields: it expands no
/// entity beyond XML's five and character references, refuses documents with a DTD (where entity bombs live) and
/// nesting deeper than ``maximumDepth``, so hostile XML costs no more than its length.
package struct UPnPDeviceDescription: Hashable, Sendable {
    /// The root device's manufacturer ("Canon").
    package var manufacturer: String?
    /// Its model name ("Canon EOS R6").
    package var modelName: String?
    /// The name its owner sees.
    package var friendlyName: String?
    /// Its UDN ("uuid:…"), the same as in its SSDP USN.
    package var udn: String?
    /// Its serial number, where it gives one.
    package var serialNumber: String?
    /// A Canon's nickname (X_deviceNickname), where it gives one.
    package var nickname: String?
    /// The service types of the device and its embedded devices.
    package var serviceTypes: [String] = []
    /// The version of Sony's Camera Remote API (`X_ScalarWebAPI_Version`), which a Sony that speaks it over HTTP
    /// gives and one that speaks PTP/IP does not.
    package var remoteAPIVersion: String?

    /// The longest description read.
    package static let maximumLength = 64 << 10
    /// The deepest nesting read.
    package static let maximumDepth = 32
    /// The most service types kept.
    package static let maximumServiceCount = 64

    /// A description with the given fields.
    package init(
        manufacturer: String? = nil, modelName: String? = nil, friendlyName: String? = nil, udn: String? = nil,
        serialNumber: String? = nil, nickname: String? = nil, serviceTypes: [String] = [],
        remoteAPIVersion: String? = nil
    ) {
        self.manufacturer = manufacturer
        self.modelName = modelName
        self.friendlyName = friendlyName
        self.udn = udn
        self.serialNumber = serialNumber
        self.nickname = nickname
        self.serviceTypes = serviceTypes
        self.remoteAPIVersion = remoteAPIVersion
    }

    /// Reads a description.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for a document that is too long or too deep, has a DTD, a
    ///   tag that does not end, or end tags that do not match.
    package init(decoding bytes: [UInt8]) throws(ViewfinderError) {
        guard bytes.count <= Self.maximumLength else {
            throw ViewfinderError(.malformedData, "a device description of \(bytes.count) bytes is longer than 64 KiB")
        }
        var stack: [[UInt8]] = []
        /// The depth of the root device's element, once found.
        var rootDevice: Int?
        var index = 0
        var text: (start: Int, element: [UInt8])?
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            guard let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else {
                throw ViewfinderError(.malformedData, "a tag at byte \(open) of a device description does not end")
            }
            if let pending = text {
                let value = Self.unescaped(bytes[pending.start..<open])
                switch String(decoding: pending.element, as: UTF8.self) {
                case "serviceType" where serviceTypes.count < Self.maximumServiceCount:
                    serviceTypes.append(value)
                case "X_deviceNickname":
                    // Canon puts its nickname in a service element.
                    nickname = nickname ?? value
                case "X_ScalarWebAPI_Version":
                    remoteAPIVersion = remoteAPIVersion ?? value
                case let element where rootDevice.map { stack.count == $0 + 2 } == true:
                    assign(value, to: element)
                default:
                    break
                }
                text = nil
            }
            index = close + 1
            let tag = bytes[(open + 1)..<close]
            switch tag.first {
            case UInt8(ascii: "?"):
                continue
            case UInt8(ascii: "!"):
                guard !tag.starts(with: Array("!DOCTYPE".utf8)) else {
                    throw ViewfinderError(.malformedData, "a device description declares a DTD, which it need not")
                }
                if tag.starts(with: Array("!--".utf8)) {
                    let end = Self.find(Array("-->".utf8), in: bytes, from: open + 4)
                    guard let end else {
                        throw ViewfinderError(.malformedData, "a comment in a device description does not end")
                    }
                    index = end + 3
                }
                continue
            case UInt8(ascii: "/"):
                let name = Self.localName(tag.dropFirst())
                guard stack.last == name else {
                    throw ViewfinderError(
                        .malformedData,
                        "a device description closes <\(String(decoding: name, as: UTF8.self))> out of order")
                }
                stack.removeLast()
            default:
                let name = Self.localName(tag)
                if tag.last == UInt8(ascii: "/") { continue }
                stack.append(name)
                guard stack.count <= Self.maximumDepth else {
                    throw ViewfinderError(.malformedData, "a device description nests deeper than 32 elements")
                }
                if rootDevice == nil, name == Array("device".utf8) { rootDevice = stack.count - 1 }
                text = (close + 1, name)
            }
        }
    }

    /// Keeps the first value of a field of the root device.
    private mutating func assign(_ value: String, to element: String) {
        switch element {
        case "manufacturer": manufacturer = manufacturer ?? value
        case "modelName": modelName = modelName ?? value
        case "friendlyName": friendlyName = friendlyName ?? value
        case "UDN": udn = udn ?? value
        case "serialNumber": serialNumber = serialNumber ?? value
        default: break
        }
    }

    /// The element name of a tag's text without its attributes or namespace prefix.
    private static func localName(_ tag: ArraySlice<UInt8>) -> [UInt8] {
        let name = tag.prefix {
            ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "/")]
                .contains($0)
        }
        return Array(name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard start <= bytes.count - needle.count else { return nil }
        return (start...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// Text with XML's five entities and character references replaced, and spaces at the ends trimmed.
    static func unescaped(_ bytes: ArraySlice<UInt8>) -> String {
        var text = ""
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "&"),
                let semicolon = bytes[index...].prefix(12).firstIndex(of: UInt8(ascii: ";"))
            else {
                let next = bytes[index...].dropFirst().firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
                text += String(decoding: bytes[index..<next], as: UTF8.self)
                index = next
                continue
            }
            let entity = String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)
            let replacement: String? =
                switch entity {
                case "amp": "&"
                case "lt": "<"
                case "gt": ">"
                case "quot": "\""
                case "apos": "'"
                case _ where entity.hasPrefix("#x"):
                    UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                case _ where entity.hasPrefix("#"):
                    UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                default: nil
                }
            if let replacement {
                text += replacement
                index = semicolon + 1
            } else {
                text += "&"
                index += 1
            }
        }
        return text.trimmingWhitespace
    }
}
