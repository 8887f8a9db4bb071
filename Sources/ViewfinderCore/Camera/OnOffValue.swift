/// A setting that is on or off, such as mirror lockup or the depth-of-field preview.
public enum OnOffValue: CameraPropertyValue, CaseIterable {
    /// Off.
    case off
    /// On.
    case on

    /// "Off" or "On".
    public var localizedDisplayValue: String {
        switch self {
        case .off: "Off"
        case .on: "On"
        }
    }
}
