import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

/// A Fujifilm camera on the network, reached over Fujifilm's WiFi protocol.
///
/// ```swift
/// let camera = PTPCamera(endpoint: FujiWiFiEndpoint(host: "192.168.0.1"))
/// ```
public struct FujiWiFiEndpoint: PTPEndpoint {
    /// The camera's host name or IP address.
    public var host: String
    /// How the transport connects and how long it waits; the ports are in here.
    public var configuration: FujiWiFiTransport.Configuration

    /// Creates an endpoint.
    public init(host: String, configuration: FujiWiFiTransport.Configuration = FujiWiFiTransport.Configuration()) {
        (self.host, self.configuration) = (host, configuration)
    }

    /// `host:port`, the command port.
    public var description: String {
        HostPort.text(host, port: configuration.commandPort)
    }

    /// Connects to the command port and sends the init, on a thread of its own.
    public func openTransport() async throws -> any PTPTransport {
        try await IOThread.run(name: "fuji-connect") { [self] in
            try FujiWiFiTransport.connect(to: host, configuration: configuration)
        }
    }
}
