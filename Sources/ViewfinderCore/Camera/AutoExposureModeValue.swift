/// An exposure mode: which of shutter speed, aperture and ISO the camera sets by itself.
public enum AutoExposureModeValue: CameraPropertyValue, CaseIterable {
    /// The camera sets everything (green "Auto").
    case fullyAutomatic
    /// Program: the camera sets shutter speed and aperture (P).
    case program
    /// Aperture priority: the photographer sets the aperture (A, Av).
    case aperturePriority
    /// Shutter priority: the photographer sets the shutter speed (S, Tv).
    case shutterPriority
    /// Manual: the photographer sets shutter speed and aperture (M).
    case manual
    /// Bulb: the shutter stays open while it is held (B).
    case bulb

    /// "Auto", "P", "A", "S", "M" or "B".
    public var localizedDisplayValue: String {
        switch self {
        case .fullyAutomatic: return "Auto"
        case .program: return "P"
        case .aperturePriority: return "A"
        case .shutterPriority: return "S"
        case .manual: return "M"
        case .bulb: return "B"
        }
    }
}
