/// The code of an event a camera reports on its own, such as a new object on the card.
public struct PTPEventCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as it travels on the wire.
    public var rawValue: UInt16
    /// The name a vendor dialect gives its own code, for messages; codes compare by ``rawValue`` alone.
    public let vendorName: String?

    /// Creates a code from its wire value.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
        vendorName = nil
    }

    /// Creates a code from its wire value.
    public init(_ rawValue: UInt16) {
        self.init(rawValue: rawValue)
    }

    /// Creates a vendor's code with the name its dialect gives it in messages, such as `EOS GetEvent`.
    public init(_ rawValue: UInt16, vendorName: String) {
        self.rawValue = rawValue
        self.vendorName = vendorName
    }

    /// CancelTransaction(transactionID).
    public static let cancelTransaction = PTPEventCode(0x4001)
    /// ObjectAdded(handle): a new object, such as a captured image, is on a storage.
    public static let objectAdded = PTPEventCode(0x4002)
    /// ObjectRemoved(handle).
    public static let objectRemoved = PTPEventCode(0x4003)
    /// StoreAdded(storageID).
    public static let storeAdded = PTPEventCode(0x4004)
    /// StoreRemoved(storageID).
    public static let storeRemoved = PTPEventCode(0x4005)
    /// DevicePropChanged(property): the property's value or its settable values changed.
    public static let devicePropChanged = PTPEventCode(0x4006)
    /// ObjectInfoChanged(handle).
    public static let objectInfoChanged = PTPEventCode(0x4007)
    /// DeviceInfoChanged.
    public static let deviceInfoChanged = PTPEventCode(0x4008)
    /// StoreFull(storageID).
    public static let storeFull = PTPEventCode(0x400A)
    /// StorageInfoChanged(storageID).
    public static let storageInfoChanged = PTPEventCode(0x400C)
    /// CaptureComplete(transactionID): an InitiateCapture has finished.
    public static let captureComplete = PTPEventCode(0x400D)

    private static let names: [UInt16: String] = [
        0x4001: "CancelTransaction", 0x4002: "ObjectAdded", 0x4003: "ObjectRemoved", 0x4004: "StoreAdded",
        0x4005: "StoreRemoved", 0x4006: "DevicePropChanged", 0x4007: "ObjectInfoChanged",
        0x4008: "DeviceInfoChanged", 0x400A: "StoreFull", 0x400C: "StorageInfoChanged", 0x400D: "CaptureComplete",
    ]

    /// The event's name and code, such as `ObjectAdded (0x4002)`.
    public var description: String { PTPCodeName.describe(rawValue, vendorName ?? Self.names[rawValue]) }
}
