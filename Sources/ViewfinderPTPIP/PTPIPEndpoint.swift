import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

/// A camera on the network, at a host and port, reached over PTP/IP.
///
/// ```swift
/// let camera = PTPCamera(endpoint: PTPIPEndpoint(host: "192.168.1.1"))
/// // the same: PTPCamera(host: "192.168.1.1")
/// ```
public struct PTPIPEndpoint: PTPEndpoint {
    /// The camera's host name or IP address.
    public var host: String
    /// How the transport connects and how long it waits; the port is in here.
    public var configuration: PTPIPTransport.Configuration

    /// Creates an endpoint.
    public init(host: String, configuration: PTPIPTransport.Configuration = PTPIPTransport.Configuration()) {
        self.host = host
        self.configuration = configuration
    }

    /// `host:port`.
    public var description: String {
        HostPort.text(host, port: configuration.port)
    }

    /// Connects both channels and performs the PTP/IP handshake, on a thread of its own; a camera that asks its user
    /// before it answers is reported to the handler `Camera/connect(options:userIntervention:)` was given.
    public func openTransport() async throws -> any PTPTransport {
        let host = host
        let configuration = configuration
        let userIntervention = CameraUserInterventionHandler.current
        return try await IOThread.run(name: "ptpip-connect") {
            try PTPIPTransport.connect(to: host, configuration: configuration, userIntervention: userIntervention)
        }
    }
}

extension PTPSession {
    /// Connects to a camera on the network over PTP/IP and opens a session.
    ///
    /// - Parameters:
    ///   - host: The camera's host name or IP address.
    ///   - configuration: The port, names and timeouts of the PTP/IP transport.
    ///   - session: The PTP session's ID and limits.
    /// - Throws: `ViewfinderError` with `ViewfinderError/Code/connectionFailed` when the camera cannot be reached,
    ///   `ViewfinderError/Code/deviceBusy` when it refuses because another client has it,
    ///   `ViewfinderError/Code/pairingRequired` when it waits to be paired with this computer,
    ///   `ViewfinderError/Code/timeout` when it does not answer in time, and the codes of failed transactions.
    public static func connect(
        to host: String, configuration: PTPIPTransport.Configuration = PTPIPTransport.Configuration(),
        session: PTPSession.Configuration = PTPSession.Configuration()
    ) async throws -> PTPSession {
        let transport = try await PTPIPEndpoint(host: host, configuration: configuration).openTransport()
        return try await PTPSession.open(over: transport, configuration: session)
    }
}

extension PTPCamera {
    /// Creates a camera on the network at `host`, reached over PTP/IP; nothing happens until ``connect()``.
    ///
    /// - Parameters:
    ///   - host: The camera's host name or IP address, such as "192.168.1.1".
    ///   - transport: The port, names and timeouts of the PTP/IP transport.
    ///   - configuration: The camera's timeouts and live view settings.
    public convenience init(
        host: String, transport: PTPIPTransport.Configuration = PTPIPTransport.Configuration(),
        configuration: Configuration = Configuration()
    ) {
        self.init(endpoint: PTPIPEndpoint(host: host, configuration: transport), configuration: configuration)
    }

    /// The camera's host name or address, when it is reached over PTP/IP.
    public var host: String? { (endpoint as? PTPIPEndpoint)?.host }
}
