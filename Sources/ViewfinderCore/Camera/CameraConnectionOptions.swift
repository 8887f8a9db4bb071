/// What ``Camera/connect(options:)`` does beyond connecting.
public struct CameraConnectionOptions: OptionSet, Hashable, Sendable {
    /// The bits of the set.
    public let rawValue: UInt32

    /// Creates a set from its bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Sets the camera's clock to the computer's once connected, where the camera offers it
    /// (``CameraFunctionality/clockUpdate``), so that its pictures' dates match the computer's.
    public static let synchronizeClock = CameraConnectionOptions(rawValue: 1 << 0)
}
