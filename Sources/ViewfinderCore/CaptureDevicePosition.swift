/// Where a camera faces, relative to the person using the device.
///
/// Frames from a ``front`` camera are treated as mirrored. Capture devices on Linux rarely say where they face, so
/// their position is ``unspecified`` unless configured.
public enum CaptureDevicePosition: Hashable, Sendable {
    /// The position is not known or does not matter.
    case unspecified
    /// The camera faces the world, away from the user.
    case back
    /// The camera faces the user; its frames are mirrored.
    case front
}
