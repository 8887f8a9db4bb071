/// How the camera renders colour and contrast in its pictures: Canon's picture styles, and the like.
public enum ColorToneValue: CameraPropertyValue, CaseIterable {
    /// The camera's general-purpose rendering.
    case standard
    /// Soft skin tones.
    case portrait
    /// Vivid greens and blues, crisp outlines.
    case landscape
    /// Natural colours and low contrast, for editing afterwards.
    case neutral
    /// Colours as measured under daylight.
    case faithful
    /// Black and white.
    case monochrome
    /// The camera chooses by the scene.
    case auto
    /// Fine detail and texture.
    case fineDetail

    /// "Standard", "Portrait", "Landscape", "Neutral", "Faithful", "Monochrome", "Auto" or "Fine Detail".
    public var localizedDisplayValue: String {
        switch self {
        case .standard: "Standard"
        case .portrait: "Portrait"
        case .landscape: "Landscape"
        case .neutral: "Neutral"
        case .faithful: "Faithful"
        case .monochrome: "Monochrome"
        case .auto: "Auto"
        case .fineDetail: "Fine Detail"
        }
    }
}
