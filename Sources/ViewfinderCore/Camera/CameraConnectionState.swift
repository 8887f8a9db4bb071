/// Where a camera is in its connection's life.
public enum CameraConnectionState: Hashable, Sendable, CustomStringConvertible {
    /// No connection: before ``Camera/connect()``, after ``Camera/disconnect()``, or after the camera went away.
    case notConnected
    /// ``Camera/connect()`` is under way.
    case connecting
    /// The camera is ready for use.
    case connected
    /// ``Camera/disconnect()`` is under way.
    case disconnecting

    /// The state's name, such as "connected".
    public var description: String {
        switch self {
        case .notConnected: return "not connected"
        case .connecting: return "connecting"
        case .connected: return "connected"
        case .disconnecting: return "disconnecting"
        }
    }
}
