/// The value of a device control that has no meaning shared between cameras: an integer, a switch or a menu item.
///
/// Capture devices expose controls such as brightness, contrast or power-line frequency. Their values carry no
/// camera-independent meaning, so they are plain integers, booleans or the names of menu items:
///
/// ```swift
/// let brightness = CameraPropertyIdentifier<CameraControlValue>(
///     name: "brightness", localizedDisplayName: "Brightness")
/// let property = camera.property(for: brightness)
/// try await property.setValue(.integer(10))
/// ```
public enum CameraControlValue: CameraPropertyValue {
    /// An integer setting, such as a brightness of 128.
    case integer(Int64)
    /// A switch.
    case boolean(Bool)
    /// One item of a menu, by its name.
    case menuItem(String)

    /// The integer as written, "On" or "Off", or the menu item's name.
    public var localizedDisplayValue: String {
        switch self {
        case .integer(let value): return String(value)
        case .boolean(let isOn): return isOn ? "On" : "Off"
        case .menuItem(let name): return name
        }
    }
}
