/// How far ``Camera/driveFocus(_:towards:)`` moves the focus in one call: the camera's own small, medium and large
/// steps of its focus motor.
public enum FocusDriveAmount: Sendable, Hashable, CaseIterable {
    /// The smallest step the camera offers, for the last touch of a careful focus.
    case small
    /// A step between the two others.
    case medium
    /// The largest step the camera offers, to cross the range of the lens in a few calls.
    case large
}
