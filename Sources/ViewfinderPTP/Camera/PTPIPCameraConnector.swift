import ViewfinderCore

/// Makes ``PTPIPCamera``s for manual discovery, after checking that the camera accepts connections on its PTP/IP
/// port.
///
/// ``ViewfinderCore/CameraDiscovery/shared`` uses one with the default configuration; make another for other
/// timeouts:
///
/// ```swift
/// let discovery = CameraDiscovery(connector: PTPIPCameraConnector(probeTimeout: .seconds(2)))
/// let camera = try await discovery.manualDiscovery.discover(.cameraType(.nikon, atAddress: "192.168.1.1"))
/// ```
public struct PTPIPCameraConnector: CameraConnector {
    /// The port PTP/IP cameras listen on.
    public static let standardPort: UInt16 = 15740

    /// The configuration of the cameras made; the port comes from the descriptor or the family.
    public var configuration: PTPIPCamera.Configuration
    /// How long to wait for the camera to accept a connection.
    public var probeTimeout: Duration

    /// Creates a connector.
    public init(
        configuration: PTPIPCamera.Configuration = PTPIPCamera.Configuration(), probeTimeout: Duration = .seconds(5)
    ) {
        self.configuration = configuration
        self.probeTimeout = probeTimeout
    }

    /// Checks that something accepts TCP connections at `host` on `port` (15740 when `nil`), then returns a camera
    /// for it, not yet connected.
    ///
    /// The check opens and closes a connection without a PTP/IP handshake, so the camera is not held: it stays free
    /// for ``PTPIPCamera/connect()``.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` for Fujifilm, Olympus and Panasonic cameras, which need
    ///   protocols Viewfinder does not speak; ``ViewfinderError/Code/connectionFailed`` or
    ///   ``ViewfinderError/Code/timeout`` when nothing answers.
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
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            // The connect waits in poll(2): on a thread of its own, not on the cooperative pool.
            IOThread.detach {
                do {
                    try TCPSocket.connect(host: host, port: port, timeout: timeout).close()
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        var configuration = configuration
        configuration.session.port = port
        return PTPIPCamera(host: host, configuration: configuration)
    }
}

extension CameraDiscovery {
    /// Discovery of PTP/IP cameras, with the gateways of the kernel's routing table.
    ///
    /// ```swift
    /// let manualDiscovery = CameraDiscovery.shared.manualDiscovery
    /// manualDiscovery.discover(.cameraAtSuggestedGateway(.canon)) { result in
    ///     switch result {
    ///     case .success(let camera):
    ///         // Use the camera. Make sure you keep a strong reference to it!
    ///     case .failure(let error):
    ///         print("Couldn't resolve camera with error: \(error)")
    ///     }
    /// }
    /// ```
    public static let shared = CameraDiscovery(connector: PTPIPCameraConnector())
}
