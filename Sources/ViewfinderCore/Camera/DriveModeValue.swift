/// A drive mode: how many pictures one press of the shutter takes, and when.
public enum DriveModeValue: CameraPropertyValue, CaseIterable {
    /// One picture per press.
    case single
    /// Pictures for as long as the shutter is held.
    case continuous
    /// Continuous shooting at the camera's lower rate.
    case continuousLow
    /// Continuous shooting at the camera's higher rate.
    case continuousHigh
    /// One picture after a delay.
    case selfTimer
    /// Pictures at a set interval.
    case timeLapse

    /// "Single", "Continuous", "Continuous Low", "Continuous High", "Self-Timer" or "Time-Lapse".
    public var localizedDisplayValue: String {
        switch self {
        case .single: return "Single"
        case .continuous: return "Continuous"
        case .continuousLow: return "Continuous Low"
        case .continuousHigh: return "Continuous High"
        case .selfTimer: return "Self-Timer"
        case .timeLapse: return "Time-Lapse"
        }
    }
}
