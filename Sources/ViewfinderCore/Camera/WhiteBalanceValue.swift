/// A white balance setting: how the camera decides which colour is neutral.
public enum WhiteBalanceValue: CameraPropertyValue, CaseIterable {
    /// The camera measures each scene.
    case automatic
    /// Direct sunlight.
    case daylight
    /// Overcast sky.
    case cloudy
    /// Open shade.
    case shade
    /// Incandescent (tungsten) light.
    case tungsten
    /// Fluorescent light.
    case fluorescent
    /// The camera's flash.
    case flash
    /// A colour temperature set in kelvin, in a property of its own.
    case colorTemperature
    /// A white balance measured from a reference shot.
    case custom

    /// "Auto", "Daylight", "Cloudy", "Shade", "Tungsten", "Fluorescent", "Flash", "Kelvin" or "Custom".
    public var localizedDisplayValue: String {
        switch self {
        case .automatic: return "Auto"
        case .daylight: return "Daylight"
        case .cloudy: return "Cloudy"
        case .shade: return "Shade"
        case .tungsten: return "Tungsten"
        case .fluorescent: return "Fluorescent"
        case .flash: return "Flash"
        case .colorTemperature: return "Kelvin"
        case .custom: return "Custom"
        }
    }
}
