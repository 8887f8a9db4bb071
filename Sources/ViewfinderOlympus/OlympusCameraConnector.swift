import ViewfinderCore

/// Makes ``OlympusCamera``s for Olympus and OM System cameras at network addresses, for discovery: a port in the
/// address is the port of the camera's commands.
///
/// ```swift
/// let camera = try await CameraDiscovery.shared.manualDiscovery.discover(
///     .cameraType(.olympus, atAddress: OlympusCamera.accessPointAddress))
/// ```
public struct OlympusCameraConnector: CameraConnector {
    /// How the cameras it makes are polled and how long they may take to answer.
    public var configuration: OlympusCamera.Configuration

    /// A connector whose cameras use `configuration`.
    public init(configuration: OlympusCamera.Configuration = OlympusCamera.Configuration()) {
        self.configuration = configuration
    }

    /// Network addresses.
    public var addressKind: CameraAddress.Kind { .network }

    /// An ``OlympusCamera`` at `address`, not yet connected.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for a family other than Olympus, which leaves the camera to the
    ///   next connector.
    public func camera(of family: CameraFamily, at address: CameraAddress) async throws -> any Camera {
        guard family == .olympus, case .network(let host, let port, _) = address else {
            throw ViewfinderError(
                .notAvailable, "the Olympus driver speaks to Olympus and OM System cameras on the network alone")
        }
        var configuration = configuration
        if let port {
            configuration.port = port
        }
        return OlympusCamera(host: host, configuration: configuration)
    }
}
