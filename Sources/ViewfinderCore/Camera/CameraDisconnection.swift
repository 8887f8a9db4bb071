/// How a camera's last connection ended.
public struct CameraDisconnection: Hashable, Sendable, CustomStringConvertible {
    /// Why the connection ended, when it was not asked to: the peer closed it, or stopped answering.
    public let error: ViewfinderError?

    /// Creates the record of a disconnection.
    ///
    /// - Parameter error: Why the connection ended; `nil` when ``Camera/disconnect()`` ended it.
    public init(error: ViewfinderError?) {
        self.error = error
    }

    /// A disconnection asked for with ``Camera/disconnect()``.
    public static let requested = CameraDisconnection(error: nil)

    /// Whether ``Camera/disconnect()`` ended the connection, rather than the camera or the network.
    public var wasExpected: Bool { error == nil }

    /// "requested", or the error that ended the connection.
    public var description: String {
        error.map { "unexpected: \($0)" } ?? "requested"
    }
}
