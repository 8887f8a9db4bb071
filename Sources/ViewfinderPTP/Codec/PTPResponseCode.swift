/// The code a camera answers an operation with: ``ok`` or the reason it failed.
public struct PTPResponseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
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

    /// The operation succeeded.
    public static let ok = PTPResponseCode(0x2001)
    /// The operation failed for a reason the camera does not say.
    public static let generalError = PTPResponseCode(0x2002)
    /// The operation needs an open session.
    public static let sessionNotOpen = PTPResponseCode(0x2003)
    /// The transaction ID is not the one the camera expected.
    public static let invalidTransactionID = PTPResponseCode(0x2004)
    /// The camera does not know the operation.
    public static let operationNotSupported = PTPResponseCode(0x2005)
    /// A parameter is not supported.
    public static let parameterNotSupported = PTPResponseCode(0x2006)
    /// The transfer ended before all data arrived.
    public static let incompleteTransfer = PTPResponseCode(0x2007)
    /// The storage ID names no storage.
    public static let invalidStorageID = PTPResponseCode(0x2008)
    /// The object handle names no object.
    public static let invalidObjectHandle = PTPResponseCode(0x2009)
    /// The camera does not have the property.
    public static let devicePropNotSupported = PTPResponseCode(0x200A)
    /// The object format code is not valid.
    public static let invalidObjectFormatCode = PTPResponseCode(0x200B)
    /// The storage is full.
    public static let storeFull = PTPResponseCode(0x200C)
    /// The object is write-protected.
    public static let objectWriteProtected = PTPResponseCode(0x200D)
    /// The storage is read-only.
    public static let storeReadOnly = PTPResponseCode(0x200E)
    /// The camera refused: the thing asked for cannot be changed or read now.
    public static let accessDenied = PTPResponseCode(0x200F)
    /// The object has no thumbnail.
    public static let noThumbnailPresent = PTPResponseCode(0x2010)
    /// The storage is not available.
    public static let storeNotAvailable = PTPResponseCode(0x2013)
    /// The object format is not supported.
    public static let specificationByFormatUnsupported = PTPResponseCode(0x2014)
    /// No valid object info was sent.
    public static let noValidObjectInfo = PTPResponseCode(0x2015)
    /// The camera is busy; try again shortly.
    public static let deviceBusy = PTPResponseCode(0x2019)
    /// The parent object is not valid.
    public static let invalidParentObject = PTPResponseCode(0x201A)
    /// The property value has the wrong data type.
    public static let invalidDevicePropFormat = PTPResponseCode(0x201B)
    /// The property value is not one the camera accepts.
    public static let invalidDevicePropValue = PTPResponseCode(0x201C)
    /// A parameter value is not valid.
    public static let invalidParameter = PTPResponseCode(0x201D)
    /// A session is already open.
    public static let sessionAlreadyOpen = PTPResponseCode(0x201E)
    /// The transaction was cancelled.
    public static let transactionCancelled = PTPResponseCode(0x201F)

    private static let names: [UInt16: String] = [
        0x2001: "OK", 0x2002: "GeneralError", 0x2003: "SessionNotOpen", 0x2004: "InvalidTransactionID",
        0x2005: "OperationNotSupported", 0x2006: "ParameterNotSupported", 0x2007: "IncompleteTransfer",
        0x2008: "InvalidStorageID", 0x2009: "InvalidObjectHandle", 0x200A: "DevicePropNotSupported",
        0x200B: "InvalidObjectFormatCode", 0x200C: "StoreFull", 0x200D: "ObjectWriteProtected",
        0x200E: "StoreReadOnly", 0x200F: "AccessDenied", 0x2010: "NoThumbnailPresent",
        0x2013: "StoreNotAvailable", 0x2014: "SpecificationByFormatUnsupported", 0x2015: "NoValidObjectInfo",
        0x2019: "DeviceBusy", 0x201A: "InvalidParentObject", 0x201B: "InvalidDevicePropFormat",
        0x201C: "InvalidDevicePropValue", 0x201D: "InvalidParameter", 0x201E: "SessionAlreadyOpen",
        0x201F: "TransactionCancelled",
    ]

    /// The response's name and code, such as `DeviceBusy (0x2019)`.
    public var description: String { PTPCodeName.describe(rawValue, vendorName ?? Self.names[rawValue]) }
}
