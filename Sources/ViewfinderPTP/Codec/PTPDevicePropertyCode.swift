/// The code of a camera property, such as ISO or shutter speed.
public struct PTPDevicePropertyCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
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

    /// Battery level in percent (UInt8).
    public static let batteryLevel = PTPDevicePropertyCode(0x5001)
    /// Image size as a `WIDTHxHEIGHT` string.
    public static let imageSize = PTPDevicePropertyCode(0x5003)
    /// Compression setting (UInt8).
    public static let compressionSetting = PTPDevicePropertyCode(0x5004)
    /// White balance (UInt16): 1 manual, 2 automatic, 4 daylight, 5 fluorescent, 6 tungsten, 7 flash.
    public static let whiteBalance = PTPDevicePropertyCode(0x5005)
    /// Aperture as the f-number × 100 (UInt16).
    public static let fNumber = PTPDevicePropertyCode(0x5007)
    /// Focal length in millimetres × 100 (UInt32).
    public static let focalLength = PTPDevicePropertyCode(0x5008)
    /// Focus mode (UInt16): 1 manual, 2 automatic, 3 automatic macro.
    public static let focusMode = PTPDevicePropertyCode(0x500A)
    /// Exposure metering mode (UInt16): 1 average, 2 centre-weighted, 3 multi-spot, 4 centre-spot.
    public static let exposureMeteringMode = PTPDevicePropertyCode(0x500B)
    /// Flash mode (UInt16).
    public static let flashMode = PTPDevicePropertyCode(0x500C)
    /// Shutter speed in seconds × 10 000 (UInt32).
    public static let exposureTime = PTPDevicePropertyCode(0x500D)
    /// Exposure program (UInt16): 1 manual, 2 program, 3 aperture priority, 4 shutter priority.
    public static let exposureProgramMode = PTPDevicePropertyCode(0x500E)
    /// ISO speed (UInt16); `0xFFFF` is automatic.
    public static let exposureIndex = PTPDevicePropertyCode(0x500F)
    /// Exposure compensation in EV × 1000 (Int16).
    public static let exposureBiasCompensation = PTPDevicePropertyCode(0x5010)
    /// Date and time as a `YYYYMMDDThhmmss` string.
    public static let dateTime = PTPDevicePropertyCode(0x5011)
    /// Still capture mode (UInt16): 1 normal, 2 burst, 3 timelapse.
    public static let stillCaptureMode = PTPDevicePropertyCode(0x5013)

    private static let names: [UInt16: String] = [
        0x5001: "BatteryLevel", 0x5003: "ImageSize", 0x5004: "CompressionSetting", 0x5005: "WhiteBalance",
        0x5007: "FNumber", 0x5008: "FocalLength", 0x500A: "FocusMode", 0x500B: "ExposureMeteringMode",
        0x500C: "FlashMode", 0x500D: "ExposureTime", 0x500E: "ExposureProgramMode", 0x500F: "ExposureIndex",
        0x5010: "ExposureBiasCompensation", 0x5011: "DateTime", 0x5013: "StillCaptureMode",
    ]

    /// The property's name and code, such as `ExposureIndex (0x500F)`.
    public var description: String { PTPCodeName.describe(rawValue, vendorName ?? Self.names[rawValue]) }
}

/// The format of an object on a camera's storage.
public struct PTPObjectFormatCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
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

    /// Any format, in requests that filter by format.
    public static let any = PTPObjectFormatCode(0x0000)
    /// An object of unknown format, such as a raw file.
    public static let undefined = PTPObjectFormatCode(0x3000)
    /// A folder.
    public static let association = PTPObjectFormatCode(0x3001)
    /// A QuickTime movie.
    public static let quickTime = PTPObjectFormatCode(0x300D)
    /// An Exif/JPEG image.
    public static let exifJPEG = PTPObjectFormatCode(0x3801)
    /// A JFIF image, as thumbnails usually are.
    public static let jfif = PTPObjectFormatCode(0x3808)

    /// The format's name and code.
    public var description: String {
        PTPCodeName.describe(
            rawValue,
            [0x3000: "Undefined", 0x3001: "Association", 0x300D: "QuickTime", 0x3801: "EXIF/JPEG", 0x3808: "JFIF"][
                rawValue])
    }
}
