/// What kind of setting or reading a camera property is: an exposure setting, information, a video format….
///
/// Every ``CameraPropertyIdentifier`` carries its category, so that an app can show the properties of one kind
/// together:
///
/// ```swift
/// for property in camera.populatedProperties(in: .exposureSetting) {
///     print(property.localizedDisplayName, property.localizedDisplayValue ?? "-")
/// }
/// ```
public enum CameraPropertyCategory: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// A setting of the exposure: ISO, shutter speed, aperture, exposure compensation.
    case exposureSetting
    /// A setting of how pictures are taken: the exposure mode, the focus mode, the drive mode.
    case captureSetting
    /// A setting of how pictures look or are stored: white balance, image quality, metering.
    case imagingSetting
    /// A setting of the camera itself, such as where it stores its pictures.
    case configurationSetting
    /// A reading the camera reports and nobody sets, such as the battery level or the shots available.
    case information
    /// A setting of the video the camera records.
    case videoFormat
    /// The zoom of the live view.
    case liveViewZoom
    /// A property whose category is not known, such as a control of a capture device.
    case unknown

    /// The category's name for people, such as "Exposure Setting".
    public var localizedDisplayName: String {
        switch self {
        case .exposureSetting: "Exposure Setting"
        case .captureSetting: "Capture Setting"
        case .imagingSetting: "Imaging Setting"
        case .configurationSetting: "Configuration Setting"
        case .information: "Information"
        case .videoFormat: "Video Format"
        case .liveViewZoom: "Live View Zoom"
        case .unknown: "Unknown"
        }
    }

    /// The stable name, such as `exposureSetting`.
    public var description: String { rawValue }
}
