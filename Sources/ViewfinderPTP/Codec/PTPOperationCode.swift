/// The code of a PTP operation: what an initiator asks a camera to do.
///
/// Standard operations are in the `0x1000` range; vendors define their own in `0x9000…0x9FFF`, interpreted
/// according to the camera's ``PTPDeviceInfo/vendorExtensionID``.
public struct PTPOperationCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
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

    /// GetDeviceInfo: the ``PTPDeviceInfo`` dataset; allowed before a session is open.
    public static let getDeviceInfo = PTPOperationCode(0x1001)
    /// OpenSession(sessionID).
    public static let openSession = PTPOperationCode(0x1002)
    /// CloseSession.
    public static let closeSession = PTPOperationCode(0x1003)
    /// GetStorageIDs: an array of storage IDs.
    public static let getStorageIDs = PTPOperationCode(0x1004)
    /// GetStorageInfo(storageID): the ``PTPStorageInfo`` dataset.
    public static let getStorageInfo = PTPOperationCode(0x1005)
    /// GetNumObjects(storageID, format, parent): the count in the first response parameter.
    public static let getNumObjects = PTPOperationCode(0x1006)
    /// GetObjectHandles(storageID, format, parent): an array of object handles.
    public static let getObjectHandles = PTPOperationCode(0x1007)
    /// GetObjectInfo(handle): the ``PTPObjectInfo`` dataset.
    public static let getObjectInfo = PTPOperationCode(0x1008)
    /// GetObject(handle): the object's bytes.
    public static let getObject = PTPOperationCode(0x1009)
    /// GetThumb(handle): the object's thumbnail.
    public static let getThumb = PTPOperationCode(0x100A)
    /// DeleteObject(handle, format).
    public static let deleteObject = PTPOperationCode(0x100B)
    /// InitiateCapture(storageID, format): the result arrives as ObjectAdded and CaptureComplete events.
    public static let initiateCapture = PTPOperationCode(0x100E)
    /// PowerDown: the camera turns itself off.
    public static let powerDown = PTPOperationCode(0x1013)
    /// GetDevicePropDesc(property): the ``PTPDevicePropertyDescription`` dataset.
    public static let getDevicePropDesc = PTPOperationCode(0x1014)
    /// GetDevicePropValue(property): the property's current value.
    public static let getDevicePropValue = PTPOperationCode(0x1015)
    /// SetDevicePropValue(property), with the new value as data-out.
    public static let setDevicePropValue = PTPOperationCode(0x1016)
    /// ResetDevicePropValue(property): back to the factory default.
    public static let resetDevicePropValue = PTPOperationCode(0x1017)
    /// TerminateOpenCapture(transactionID).
    public static let terminateOpenCapture = PTPOperationCode(0x1018)
    /// GetPartialObject(handle, offset, maxBytes): a slice of the object's bytes.
    public static let getPartialObject = PTPOperationCode(0x101B)
    /// InitiateOpenCapture(storageID, format).
    public static let initiateOpenCapture = PTPOperationCode(0x101C)

    private static let names: [UInt16: String] = [
        0x1001: "GetDeviceInfo", 0x1002: "OpenSession", 0x1003: "CloseSession", 0x1004: "GetStorageIDs",
        0x1005: "GetStorageInfo", 0x1006: "GetNumObjects", 0x1007: "GetObjectHandles", 0x1008: "GetObjectInfo",
        0x1009: "GetObject", 0x100A: "GetThumb", 0x100B: "DeleteObject", 0x100E: "InitiateCapture",
        0x1013: "PowerDown", 0x1014: "GetDevicePropDesc", 0x1015: "GetDevicePropValue",
        0x1016: "SetDevicePropValue", 0x1017: "ResetDevicePropValue", 0x1018: "TerminateOpenCapture",
        0x101B: "GetPartialObject", 0x101C: "InitiateOpenCapture",
    ]

    /// The operation's name and code, such as `GetObject (0x1009)`.
    public var description: String { PTPCodeName.describe(rawValue, vendorName ?? Self.names[rawValue]) }
}

/// Formats codes for messages.
enum PTPCodeName {
    /// `Name (0x1234)` when the code has a name, `0x1234` otherwise.
    static func describe(_ code: UInt16, _ name: String?) -> String {
        let hex = hex(code)
        guard let name else { return hex }
        return "\(name) (\(hex))"
    }

    /// `0x1234`, with four upper-case digits.
    static func hex(_ code: UInt16) -> String {
        let digits = String(code, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
