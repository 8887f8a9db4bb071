/// What files the camera writes for each picture: a JPEG at one of three compressions, a raw file, or both.
public enum ImageQualityValue: CameraPropertyValue, CaseIterable {
    /// A JPEG at the highest compression.
    case jpegBasic
    /// A JPEG at the middle compression.
    case jpegNormal
    /// A JPEG at the lowest compression.
    case jpegFine
    /// A raw file alone.
    case raw
    /// A raw file and a JPEG at the highest compression.
    case rawAndJPEGBasic
    /// A raw file and a JPEG at the middle compression.
    case rawAndJPEGNormal
    /// A raw file and a JPEG at the lowest compression.
    case rawAndJPEGFine

    /// "JPEG Basic", "JPEG Normal", "JPEG Fine", "RAW", "RAW + JPEG Basic", "RAW + JPEG Normal" or "RAW + JPEG Fine".
    public var localizedDisplayValue: String {
        switch self {
        case .jpegBasic: "JPEG Basic"
        case .jpegNormal: "JPEG Normal"
        case .jpegFine: "JPEG Fine"
        case .raw: "RAW"
        case .rawAndJPEGBasic: "RAW + JPEG Basic"
        case .rawAndJPEGNormal: "RAW + JPEG Normal"
        case .rawAndJPEGFine: "RAW + JPEG Fine"
        }
    }
}
