/// How much charge the camera's battery has, or that it runs from other power.
public enum BatteryLevelValue: CameraPropertyValue {
    /// The charge left, in percent from 0 to 100.
    case percent(Int)
    /// The battery is charging.
    case charging
    /// The camera runs from mains or USB power.
    case externalPower

    /// Creates a level from a percentage, limited to 0…100, as a camera with a bad reading may send more.
    public init(clampingPercent percent: Int) {
        self = .percent(min(max(percent, 0), 100))
    }

    /// "80%", "Charging" or "External Power".
    public var localizedDisplayValue: String {
        switch self {
        case .percent(let percent): return "\(percent)%"
        case .charging: return "Charging"
        case .externalPower: return "External Power"
        }
    }
}
