import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

/// Makes `PTPCamera`s on the network for discovery, after checking that the camera accepts connections on its
/// PTP/IP port.
///
/// `CameraDiscovery.shared` uses one with the default configuration; make another for other timeouts:
///
/// ```swift
/// let discovery = CameraDiscovery(connectors: [PTPIPCameraConnector(probeTimeout: .seconds(2))])
/// let camera = try await discovery.manualDiscovery.discover(.cameraType(.nikon, atAddress: "192.168.1.1"))
/// ```
public struct PTPIPCameraConnector: CameraConnector {
    /// The port PTP/IP cameras listen on.
    public static let standardPort: UInt16 = 15740

    /// The PTP/IP configuration of the cameras made; the port comes from the descriptor or the family.
    public var transport: PTPIPTransport.Configuration
    /// The configuration of the cameras made.
    public var configuration: PTPCamera.Configuration
    /// How long to wait for the camera to accept a connection.
    public var probeTimeout: Duration

    /// Creates a connector.
    public init(
        transport: PTPIPTransport.Configuration = PTPIPTransport.Configuration(),
        configuration: PTPCamera.Configuration = PTPCamera.Configuration(), probeTimeout: Duration = .seconds(5)
    ) {
        self.transport = transport
        self.configuration = configuration
        self.probeTimeout = probeTimeout
    }

    /// Checks that something accepts TCP connections at `host` on `port` (15740 when `nil`), then returns a camera
    /// for it, not yet connected.
    ///
    /// The check opens and closes a connection without a PTP/IP handshake, so the camera is not held: it stays free
    /// for `PTPCamera/connect()`.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for Fujifilm, Olympus and Panasonic cameras, which need
    ///   protocols Viewfinder does not speak; `ViewfinderError/Code/connectionFailed` or
    ///   `ViewfinderError/Code/timeout` when nothing answers.
    public func camera(of family: CameraFamily, at host: String, port: UInt16?) async throws -> any Camera {
        switch family {
        case .canon, .nikon, .sony, .genericPTPIP:
            break
        case .fujifilm:
            throw ViewfinderError(
                .notAvailable, "Fujifilm cameras speak their own PTP/IP variant, which Viewfinder does not support yet")
        case .olympus, .panasonic:
            throw ViewfinderError(
                .notAvailable, "\(family) cameras are controlled over HTTP, which Viewfinder does not support yet")
        }
        let port = port ?? Self.standardPort
        let timeout = probeTimeout
        // The connect waits in poll(2): on a thread of its own, not on the cooperative pool.
        try await IOThread.run(name: "ptpip-probe") {
            try io { () throws(SocketError) in try Socket.connect(host: host, port: port, timeout: timeout).close() }
        }
        var transport = transport
        transport.port = port
        return PTPCamera(host: host, transport: transport, configuration: configuration)
    }
}
