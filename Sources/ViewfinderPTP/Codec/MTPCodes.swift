/// The code of an MTP object property, such as an object's 64-bit size.
public struct PTPObjectPropertyCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as it travels on the wire.
    public var rawValue: UInt16

    /// Creates a code from its wire value.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// ObjectSize (UINT64): the object's size, which ObjectInfo's 32-bit field gives as `0xFFFFFFFF` from 4 GiB on.
    public static let objectSize = PTPObjectPropertyCode(rawValue: 0xDC04)

    /// The property's name and code, such as `ObjectSize (0xDC04)`.
    public var description: String {
        PTPCodeName.describe(rawValue, rawValue == 0xDC04 ? "ObjectSize" : nil)
    }
}

/// The MTP operations Viewfinder uses, from Microsoft's vendor extension (0x06), which many cameras speak besides
/// their own.
extension PTPOperationCode {
    /// MTP GetObjectPropValue(handle, property): one object property's value.
    public static let getObjectPropValue = PTPOperationCode(0x9803, vendorName: "MTP GetObjectPropValue")
}

/// MTP's response codes.
extension PTPResponseCode {
    /// MTP Invalid_ObjectPropCode: the object has no such property.
    public static let invalidObjectPropCode = PTPResponseCode(0xA801, vendorName: "MTP Invalid_ObjectPropCode")
}

extension PTPDeviceInfo {
    /// Whether the camera says it speaks MTP: Microsoft's vendor extension, or `microsoft.com` among the extension
    /// sets it lists; MTP's operation codes mean what MTP says only then.
    public var speaksMTP: Bool {
        vendorExtensionID == 0x06 || vendorExtensionDescription.lowercased().contains("microsoft.com")
    }
}
