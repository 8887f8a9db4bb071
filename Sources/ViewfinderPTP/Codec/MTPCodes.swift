/// The code of an MTP object property, such as an object's 64-bit size.
public struct PTPObjectPropertyCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as it travels on the wire.
    public var rawValue: UInt16

    /// Creates a code from its wire value.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// StorageID (UINT32): the storage the object is on.
    public static let storageID = PTPObjectPropertyCode(rawValue: 0xDC01)
    /// ObjectFormat (UINT16): the object's format, as ObjectInfo gives it.
    public static let objectFormat = PTPObjectPropertyCode(rawValue: 0xDC02)
    /// ProtectionStatus (UINT16): 0 none, 1 read-only.
    public static let protectionStatus = PTPObjectPropertyCode(rawValue: 0xDC03)
    /// ObjectSize (UINT64): the object's size, which ObjectInfo's 32-bit field gives as `0xFFFFFFFF` from 4 GiB on.
    public static let objectSize = PTPObjectPropertyCode(rawValue: 0xDC04)
    /// ObjectFileName (string): the file name, such as `DSC_0001.JPG`.
    public static let objectFileName = PTPObjectPropertyCode(rawValue: 0xDC07)
    /// DateCreated (string): when the object was made, as `YYYYMMDDThhmmss`.
    public static let dateCreated = PTPObjectPropertyCode(rawValue: 0xDC08)
    /// DateModified (string): when the object last changed, as `YYYYMMDDThhmmss`.
    public static let dateModified = PTPObjectPropertyCode(rawValue: 0xDC09)
    /// ParentObject (UINT32): the folder the object is in, 0 at the top of its storage.
    public static let parentObject = PTPObjectPropertyCode(rawValue: 0xDC0B)

    /// The names of the properties Viewfinder reads.
    private static let names: [UInt16: String] = [
        0xDC01: "StorageID", 0xDC02: "ObjectFormat", 0xDC03: "ProtectionStatus", 0xDC04: "ObjectSize",
        0xDC07: "ObjectFileName", 0xDC08: "DateCreated", 0xDC09: "DateModified", 0xDC0B: "ParentObject",
    ]

    /// The property's name and code, such as `ObjectSize (0xDC04)`.
    public var description: String {
        PTPCodeName.describe(rawValue, Self.names[rawValue])
    }
}

/// The MTP operations Viewfinder uses, from Microsoft's vendor extension (0x06), which many cameras speak besides
/// their own.
extension PTPOperationCode {
    /// MTP GetObjectPropValue(handle, property): one object property's value.
    public static let getObjectPropValue = PTPOperationCode(0x9803, vendorName: "MTP GetObjectPropValue")
    /// MTP GetObjectPropList(handle, format, property, group, depth): properties of many objects in one answer (see
    /// ``MTPObjectPropList``), such as every property (`0xFFFFFFFF`) of a folder's children (depth 1).
    public static let getObjectPropList = PTPOperationCode(0x9805, vendorName: "MTP GetObjectPropList")
}

/// MTP's response codes.
extension PTPResponseCode {
    /// MTP Invalid_ObjectPropCode: the object has no such property.
    public static let invalidObjectPropCode = PTPResponseCode(0xA801, vendorName: "MTP Invalid_ObjectPropCode")
    /// MTP Specification_By_Group_Unsupported: the responder lists no property groups.
    public static let specificationByGroupUnsupported = PTPResponseCode(
        0xA807, vendorName: "MTP Specification_By_Group_Unsupported")
    /// MTP Specification_By_Depth_Unsupported: the responder lists no deeper than the depth it takes.
    public static let specificationByDepthUnsupported = PTPResponseCode(
        0xA808, vendorName: "MTP Specification_By_Depth_Unsupported")
}

extension PTPDeviceInfo {
    /// Whether the camera says it speaks MTP: Microsoft's vendor extension, or `microsoft.com` among the extension
    /// sets it lists; MTP's operation codes mean what MTP says only then.
    public var speaksMTP: Bool {
        vendorExtensionID == 0x06 || vendorExtensionDescription.lowercased().contains("microsoft.com")
    }
}
