/// Something ``Camera/connect(options:)`` could not do, which left the camera connected: the camera works, with less
/// than was asked for.
public struct CameraConnectionWarning: Sendable, Hashable, CustomStringConvertible {
    /// What could not be done.
    public enum Kind: Sendable, Hashable {
        /// The camera offers no way to set its clock.
        case clockSyncNotSupported
        /// The camera did not take the computer's time.
        case clockSyncFailed
    }

    /// What could not be done.
    public let kind: Kind
    /// Why, for people.
    public let message: String

    /// Creates a warning.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
