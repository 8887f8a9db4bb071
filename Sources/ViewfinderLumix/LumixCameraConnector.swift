import ViewfinderCore

/// Makes ``LumixCamera``s for Panasonic cameras at network addresses, for discovery: a port in the address is the
/// port of the camera's `cam.cgi`.
///
/// ```swift
/// let camera = try await CameraDiscovery.shared.manualDiscovery.discover(
///     .cameraType(.panasonic, atAddress: "192.168.54.1"))
/// ```
public struct LumixCameraConnector: CameraConnector {
    /// How the cameras it makes are polled and how long they may take to answer.
    public var configuration: LumixCamera.Configuration

    /// A connector whose cameras use `configuration`.
    public init(configuration: LumixCamera.Configuration = LumixCamera.Configuration()) {
        self.configuration = configuration
    }

    /// Network addresses.
    public var addressKind: CameraAddress.Kind { .network }

    /// A ``LumixCamera`` at `address`, not yet connected.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for a family other than Panasonic, which leaves the camera to
    ///   the next connector.
    public func camera(of family: CameraFamily, at address: CameraAddress) async throws -> any Camera {
        guard family == .panasonic, case .network(let host, let port, _) = address else {
            throw ViewfinderError(.notAvailable, "the Lumix driver speaks to Panasonic cameras on the network alone")
        }
        var configuration = configuration
        if let port {
            configuration.port = port
        }
        return LumixCamera(host: host, configuration: configuration)
    }
}
