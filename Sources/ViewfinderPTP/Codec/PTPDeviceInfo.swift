import ViewfinderCore

/// What a camera says about itself: who made it, which operations, events and properties it supports.
///
/// Returned by ``PTPOperationCode/getDeviceInfo``.
public struct PTPDeviceInfo: Hashable, Sendable {
    /// The PTP version times 100; 100 for PTP 1.0.
    public var standardVersion: UInt16
    /// The vendor extension in use, such as 6 for MTP devices, or 0 for none; a dialect reads it with
    /// ``manufacturer`` to know what the vendor's own codes mean.
    public var vendorExtensionID: UInt32
    /// The vendor extension's version.
    public var vendorExtensionVersion: UInt16
    /// The vendor extension's description.
    public var vendorExtensionDescription: String
    /// The functional mode; 0 is standard.
    public var functionalMode: UInt16
    /// The operations the camera supports.
    public var operationsSupported: [PTPOperationCode]
    /// The events the camera reports.
    public var eventsSupported: [PTPEventCode]
    /// The properties the camera has.
    public var devicePropertiesSupported: [PTPDevicePropertyCode]
    /// The formats captures can be made in.
    public var captureFormats: [PTPObjectFormatCode]
    /// The formats of objects the camera stores.
    public var imageFormats: [PTPObjectFormatCode]
    /// The manufacturer's name.
    public var manufacturer: String
    /// The model's name.
    public var model: String
    /// The firmware version.
    public var deviceVersion: String
    /// The serial number.
    public var serialNumber: String

    /// Creates a device info dataset.
    public init(
        standardVersion: UInt16 = 100, vendorExtensionID: UInt32 = 0, vendorExtensionVersion: UInt16 = 0,
        vendorExtensionDescription: String = "", functionalMode: UInt16 = 0,
        operationsSupported: [PTPOperationCode], eventsSupported: [PTPEventCode],
        devicePropertiesSupported: [PTPDevicePropertyCode], captureFormats: [PTPObjectFormatCode],
        imageFormats: [PTPObjectFormatCode], manufacturer: String, model: String, deviceVersion: String,
        serialNumber: String
    ) {
        self.standardVersion = standardVersion
        self.vendorExtensionID = vendorExtensionID
        self.vendorExtensionVersion = vendorExtensionVersion
        self.vendorExtensionDescription = vendorExtensionDescription
        self.functionalMode = functionalMode
        self.operationsSupported = operationsSupported
        self.eventsSupported = eventsSupported
        self.devicePropertiesSupported = devicePropertiesSupported
        self.captureFormats = captureFormats
        self.imageFormats = imageFormats
        self.manufacturer = manufacturer
        self.model = model
        self.deviceVersion = deviceVersion
        self.serialNumber = serialNumber
    }

    /// Decodes the dataset.
    ///
    /// The manufacturer's, model's, version's and serial number's strings may be missing at the end, as some cameras
    /// send them; they are then empty.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the bytes are not a DeviceInfo dataset.
    public init(decoding bytes: [UInt8]) throws(ViewfinderError) {
        var reader = PTPDataReader(bytes, reading: "DeviceInfo")
        standardVersion = try reader.read(UInt16.self)
        vendorExtensionID = try reader.read(UInt32.self)
        vendorExtensionVersion = try reader.read(UInt16.self)
        vendorExtensionDescription = try reader.readString()
        functionalMode = try reader.read(UInt16.self)
        operationsSupported = try reader.readArray(of: UInt16.self).map(PTPOperationCode.init(rawValue:))
        eventsSupported = try reader.readArray(of: UInt16.self).map(PTPEventCode.init(rawValue:))
        devicePropertiesSupported = try reader.readArray(of: UInt16.self).map(PTPDevicePropertyCode.init(rawValue:))
        captureFormats = try reader.readArray(of: UInt16.self).map(PTPObjectFormatCode.init(rawValue:))
        imageFormats = try reader.readArray(of: UInt16.self).map(PTPObjectFormatCode.init(rawValue:))
        // Cameras leave the strings out, or cut them short; libgphoto2 reads DeviceInfo without them.
        manufacturer = reader.readTrailingString()
        model = reader.readTrailingString()
        deviceVersion = reader.readTrailingString()
        serialNumber = reader.readTrailingString()
    }

    /// The dataset's wire form.
    ///
    /// - Throws: `ViewfinderError/Code/invalidArgument` for a string too long for PTP.
    public func encoded() throws(ViewfinderError) -> [UInt8] {
        var writer = PTPDataWriter(capacity: 256)
        writer.append(standardVersion)
        writer.append(vendorExtensionID)
        writer.append(vendorExtensionVersion)
        try writer.append(string: vendorExtensionDescription)
        writer.append(functionalMode)
        writer.append(array: operationsSupported.map(\.rawValue))
        writer.append(array: eventsSupported.map(\.rawValue))
        writer.append(array: devicePropertiesSupported.map(\.rawValue))
        writer.append(array: captureFormats.map(\.rawValue))
        writer.append(array: imageFormats.map(\.rawValue))
        try writer.append(string: manufacturer)
        try writer.append(string: model)
        try writer.append(string: deviceVersion)
        try writer.append(string: serialNumber)
        return writer.bytes
    }

    /// Whether the camera supports `operation`.
    public func supports(_ operation: PTPOperationCode) -> Bool {
        operationsSupported.contains(operation)
    }

    /// Whether the camera has `property`.
    public func supports(_ property: PTPDevicePropertyCode) -> Bool {
        devicePropertiesSupported.contains(property)
    }
}
