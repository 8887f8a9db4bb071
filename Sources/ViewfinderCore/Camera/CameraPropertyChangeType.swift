/// What changed about a property, as told to its observers.
public struct CameraPropertyChangeType: OptionSet, Hashable, Sendable {
    /// The bits of the set.
    public let rawValue: UInt8

    /// Creates a set from its bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// ``TypedCameraProperty/currentValue`` changed.
    public static let value = CameraPropertyChangeType(rawValue: 1 << 0)
    /// ``TypedCameraProperty/pendingValue`` changed.
    public static let pendingValue = CameraPropertyChangeType(rawValue: 1 << 1)
    /// ``TypedCameraProperty/validSettableValues`` changed.
    public static let validSettableValues = CameraPropertyChangeType(rawValue: 1 << 2)
}
