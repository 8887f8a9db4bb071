import ViewfinderCore
import ViewfinderHTTPMessage

/// Makes ``LumixCamera``s for Panasonic cameras at network addresses, for discovery: a port in the address is the
/// port of the camera's `cam.cgi`, and a path the URL of the device description the camera announced over SSDP
/// (its LOCATION), whose port and path stand in for ``LumixCamera/Configuration/contentPort`` and
/// ``LumixCamera/Configuration/descriptionPath``.
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
        guard family == .panasonic, case .network(let host, let port, let path) = address else {
            throw ViewfinderError(.notAvailable, "the Lumix driver speaks to Panasonic cameras on the network alone")
        }
        var configuration = configuration
        if let port {
            configuration.port = port
        }
        if let path {
            // A description elsewhere than on the camera would have the driver list whatever a stranger points at.
            guard let location = HTTPURL(path), location.host == host else {
                throw ViewfinderError(
                    .invalidArgument,
                    "the Lumix at \(host) announced its description at \(path), not an http:// URL on it")
            }
            configuration.contentPort = location.port
            configuration.descriptionPath = location.target
        }
        return LumixCamera(host: host, configuration: configuration)
    }
}
