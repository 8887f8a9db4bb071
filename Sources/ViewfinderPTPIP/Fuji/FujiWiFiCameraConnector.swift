import ViewfinderCore
import ViewfinderPTP

/// Makes `PTPCamera`s for Fujifilm cameras on the network, reached over Fujifilm's WiFi protocol, for discovery.
///
/// Like ``PTPIPCameraConnector`` it does not touch the network: whether the camera answers shows when it connects.
/// `CameraDiscovery.shared` asks it before the PTP/IP connector, and it makes cameras of the Fujifilm family alone:
///
/// ```swift
/// let camera = try await CameraDiscovery.shared.manualDiscovery.discover(
///     .cameraType(.fujifilm, atAddress: "192.168.0.1"))
/// ```
public struct FujiWiFiCameraConnector: CameraConnector {
    /// The transport's configuration; a port the address names is the command port, the next two the event and live
    /// view ports.
    public var transport: FujiWiFiTransport.Configuration
    /// The configuration of the cameras made.
    public var configuration: PTPCamera.Configuration

    /// Creates a connector.
    public init(
        transport: FujiWiFiTransport.Configuration = FujiWiFiTransport.Configuration(),
        configuration: PTPCamera.Configuration = PTPCamera.Configuration()
    ) {
        (self.transport, self.configuration) = (transport, configuration)
    }

    /// Network addresses.
    public var addressKind: CameraAddress.Kind { .network }

    /// Returns a camera for a Fujifilm family's network address, not yet connected.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for other families, which other connectors reach, and for an
    ///   address that is not on the network.
    public func camera(of family: CameraFamily, at address: CameraAddress) async throws -> any Camera {
        guard case .network(let host, let port, _) = address else {
            throw ViewfinderError(.notAvailable, "\(address) is not a network address")
        }
        guard family == .fujifilm else {
            throw ViewfinderError(.notAvailable, "Fujifilm's WiFi protocol reaches Fujifilm cameras alone")
        }
        let ports = port.map { FujiWiFiTransport.Configuration.ports(from: $0, base: transport) } ?? transport
        return PTPCamera(endpoint: FujiWiFiEndpoint(host: host, configuration: ports), configuration: configuration)
    }
}
