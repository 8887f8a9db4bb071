import Dispatch

/// Makes a camera object for a camera found at an address, for one network protocol.
///
/// ViewfinderPTP provides the PTP/IP connector that `CameraDiscovery.shared` uses.
public protocol CameraConnector: Sendable {
    /// Checks that a camera of `family` answers at `host` (on `port`, or the family's usual port), and returns a
    /// camera object for it, not yet connected.
    ///
    /// - Throws: ``ViewfinderError`` with ``ViewfinderError/Code/notAvailable`` for a family the connector does not
    ///   speak to, or ``ViewfinderError/Code/connectionFailed`` or ``ViewfinderError/Code/timeout`` when nothing
    ///   answers.
    func camera(of family: CameraFamily, at host: String, port: UInt16?) async throws -> any Camera
}

/// Finds cameras on the network.
///
/// ```swift
/// let manualDiscovery = CameraDiscovery.shared.manualDiscovery
/// let camera = try await manualDiscovery.discover(.cameraAtSuggestedGateway(.nikon))
/// try await camera.connect()
/// ```
public final class CameraDiscovery: Sendable {
    /// Finds a camera at an address or gateway that the app names.
    public let manualDiscovery: ManualCameraDiscovery

    /// Creates discovery that makes cameras with `connector`.
    ///
    /// - Parameters:
    ///   - connector: Checks an address and makes the camera object.
    ///   - routingTable: Reads the routing table for gateway descriptors; the kernel's by default.
    public init(
        connector: any CameraConnector,
        routingTable: @escaping @Sendable () throws -> RoutingTable = { try RoutingTable.current() }
    ) {
        manualDiscovery = ManualCameraDiscovery(connector: connector, routingTable: routingTable)
    }
}

/// Finds a camera where the app says it is: at the default gateway, at an interface's gateway, or at an address.
///
/// The result is a camera that answered at that address, not yet connected: keep a strong reference to it and call
/// ``Camera/connect()``.
///
/// ```swift
/// manualDiscovery.discover(.cameraType(.canon, atGatewayOfInterface: "wlan0")) { result in
///     switch result {
///     case .success(let camera):
///         // Use the camera. Make sure you keep a strong reference to it!
///     case .failure(let error):
///         print("Couldn't resolve camera with error: \(error)")
///     }
/// }
/// ```
public final class ManualCameraDiscovery: Sendable {
    private let connector: any CameraConnector
    private let routingTable: @Sendable () throws -> RoutingTable

    init(connector: any CameraConnector, routingTable: @escaping @Sendable () throws -> RoutingTable) {
        self.connector = connector
        self.routingTable = routingTable
    }

    /// Finds the camera a descriptor describes.
    ///
    /// - Throws: ``ViewfinderError`` with ``ViewfinderError/Code/notFound`` when the routing table has no gateway
    ///   for the descriptor, ``ViewfinderError/Code/notAvailable`` for a family Viewfinder cannot talk to, or
    ///   ``ViewfinderError/Code/connectionFailed`` or ``ViewfinderError/Code/timeout`` when no camera answers.
    public func discover(_ descriptor: ManualCameraDescriptor) async throws -> any Camera {
        var host: String?
        do {
            let resolved = try address(of: descriptor)
            host = resolved
            return try await connector.camera(of: descriptor.family, at: resolved, port: descriptor.port)
        } catch let error as ViewfinderError {
            let place = host.map { " (\($0))" } ?? ""
            throw ViewfinderError(
                error.code, "cannot find \(descriptor)\(place): \(error.message)", responseCode: error.responseCode,
                errno: error.errno)
        }
    }

    /// The host a descriptor names, from the routing table for the gateway descriptors.
    private func address(of descriptor: ManualCameraDescriptor) throws -> String {
        switch descriptor.location {
        case .address(let address):
            return address
        case .suggestedGateway:
            guard let gateway = try routingTable().defaultGateway else {
                throw ViewfinderError(
                    .notFound,
                    "the routing table has no default route; join the camera's WiFi network, or name the interface "
                        + "or the camera's address")
            }
            return gateway
        case .gatewayOfInterface(let interface):
            return try routingTable().gateway(ofInterface: interface)
        }
    }

    /// Finds the camera a descriptor describes, then calls `completion` on `completionQueue` with it or the error.
    public func discover(
        _ descriptor: ManualCameraDescriptor,
        completionQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<any Camera, any Error>) -> Void
    ) {
        Task {
            let result: Result<any Camera, any Error>
            do {
                result = .success(try await discover(descriptor))
            } catch {
                result = .failure(error)
            }
            completionQueue.async { completion(result) }
        }
    }
}
