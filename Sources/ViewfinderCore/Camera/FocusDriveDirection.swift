/// Which way ``Camera/driveFocus(_:towards:)`` moves the focus.
public enum FocusDriveDirection: Sendable, Hashable, CaseIterable {
    /// Towards the closest distance the lens focuses at.
    case towardsCamera
    /// Towards infinity.
    case towardsInfinity
}
