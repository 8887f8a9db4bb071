import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

/// Makes `PTPCamera`s on the network for discovery.
///
/// It does not touch the network: a camera that serves one client takes any TCP connection as its client, so a
/// connection opened only to see whether it is there would keep it busy for the real one. Whether the camera answers
/// shows when it connects. `CameraDiscovery.shared` uses one with the default configuration; make another for other
/// timeouts:
///
/// ```swift
/// let transport = PTPIPTransport.Configuration(connectTimeout: .seconds(2))
/// let discovery = CameraDiscovery(connectors: [PTPIPCameraConnector(transport: transport)])
/// let camera = try await discovery.manualDiscovery.discover(.cameraType(.nikon, atAddress: "192.168.1.1"))
/// ```
public struct PTPIPCameraConnector: CameraConnector {
    /// The port PTP/IP cameras listen on.
    public static let standardPort: UInt16 = 15740

    /// The PTP/IP configuration of the cameras made; the port comes from the descriptor or the family.
    public var transport: PTPIPTransport.Configuration
    /// The configuration of the cameras made.
    public var configuration: PTPCamera.Configuration

    /// Creates a connector.
    public init(
        transport: PTPIPTransport.Configuration = PTPIPTransport.Configuration(),
        configuration: PTPCamera.Configuration = PTPCamera.Configuration()
    ) {
        self.transport = transport
        self.configuration = configuration
    }

    /// Network addresses.
    public var addressKind: CameraAddress.Kind { .network }

    /// Returns a camera for a network address, on its port (15740 when it names none), not yet connected;
    /// `PTPCamera/connect()` finds out whether it answers.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for Fujifilm cameras, which ``FujiWiFiCameraConnector`` reaches,
    ///   for Olympus and Panasonic cameras and Sony's Camera Remote API, which speak HTTP to connectors of their own,
    ///   and for an address that is not on the network.
    public func camera(of family: CameraFamily, at address: CameraAddress) async throws -> any Camera {
        guard case .network(let host, let port, _) = address else {
            throw ViewfinderError(.notAvailable, "\(address) is not a network address; PTP/IP reaches cameras by host")
        }
        switch family {
        case .fujifilm:
            throw ViewfinderError(
                .notAvailable,
                "Fujifilm cameras speak their own variant of PTP/IP, which FujiWiFiCameraConnector reaches")
        case .olympus, .panasonic:
            throw ViewfinderError(
                .notAvailable, "\(family) cameras speak HTTP, which their own connectors reach, not PTP/IP")
        case .sonyRemoteAPI:
            throw ViewfinderError(
                .notAvailable,
                "this Sony speaks its Camera Remote API over HTTP, which SonyRemoteCameraConnector reaches, not PTP/IP")
        default:
            break
        }
        var transport = transport
        transport.port = port ?? Self.standardPort
        return PTPCamera(host: host, transport: transport, configuration: configuration)
    }
}
