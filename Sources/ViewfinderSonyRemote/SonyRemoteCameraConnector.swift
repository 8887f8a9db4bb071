import ViewfinderCore

/// Makes ``SonyRemoteCamera``s for Sony bodies that speak the Camera Remote API at network addresses, for
/// discovery: a port in the address is the port of the camera's device description (64321 on real bodies), and a
/// path, such as the one a body announced over SSDP, the description's path (`/dd.xml` or `/DmsRmtDesc.xml` without).
///
/// ```swift
/// let camera = try await CameraDiscovery.shared.manualDiscovery.discover(
///     .cameraType(.sonyRemoteAPI, atAddress: "192.168.122.1"))
/// ```
public struct SonyRemoteCameraConnector: CameraConnector {
    /// Where the cameras it makes describe themselves and how long they may take to answer.
    public var configuration: SonyRemoteCamera.Configuration

    /// A connector whose cameras use `configuration`.
    public init(configuration: SonyRemoteCamera.Configuration = SonyRemoteCamera.Configuration()) {
        self.configuration = configuration
    }

    /// Network addresses.
    public var addressKind: CameraAddress.Kind { .network }

    /// A ``SonyRemoteCamera`` at `address`, not yet connected.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for a family other than the Camera Remote API's, which leaves
    ///   the camera to the next connector.
    public func camera(of family: CameraFamily, at address: CameraAddress) async throws -> any Camera {
        guard family == .sonyRemoteAPI, case .network(let host, let port, let path) = address else {
            throw ViewfinderError(
                .notAvailable, "the Camera Remote API driver speaks to Sony bodies on the network that offer it alone")
        }
        var configuration = configuration
        if let port {
            configuration.port = port
        }
        if let path {
            configuration.descriptionPaths = [path]
        }
        return SonyRemoteCamera(host: host, configuration: configuration)
    }
}
