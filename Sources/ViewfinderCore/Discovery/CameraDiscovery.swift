import Dispatch
import ViewfinderSystem

/// Makes a camera object for a camera at an address of one kind, for one transport.
///
/// Each transport module provides one, such as `ViewfinderPTPIP`'s `PTPIPCameraConnector` for network addresses and
/// `ViewfinderPTPUSB`'s for USB; discovery asks only the connectors for the kind of address a camera has.
/// `CameraDiscovery.shared` (in the `ViewfinderCameras` module) has every transport's connector.
public protocol CameraConnector: Sendable {
    /// The kind of address the connector reaches cameras at.
    var addressKind: CameraAddress.Kind { get }

    /// Returns a camera object for a camera of `family` at `address`, not yet connected.
    ///
    /// - Throws: ``ViewfinderError`` with ``ViewfinderError/Code/notAvailable`` for a family the connector does not
    ///   speak to, saying what the camera would need, ``ViewfinderError/Code/notFound`` when nothing is there, or
    ///   ``ViewfinderError/Code/connectionFailed`` or ``ViewfinderError/Code/timeout`` when nothing answers.
    func camera(of family: CameraFamily, at address: CameraAddress) async throws -> any Camera
}

/// Finds cameras, through the connectors of the transports it knows: at an address the app names
/// (``manualDiscovery``), or by listening for cameras that announce themselves (``beginSearching()``).
///
/// ```swift
/// let manualDiscovery = CameraDiscovery.shared.manualDiscovery
/// let camera = try await manualDiscovery.discover(.cameraAtSuggestedGateway(.nikon))
/// try await camera.connect()
/// ```
public final class CameraDiscovery: Sendable {
    /// Finds a camera at an address or gateway that the app names.
    public let manualDiscovery: ManualCameraDiscovery
    private let connectors: Locked<[any CameraConnector]>
    /// What searching keeps: searchers, the cameras found and their observers.
    let search = CameraSearch()

    /// Creates discovery that makes cameras with `connectors`, those for an address's kind asked in order.
    ///
    /// - Parameters:
    ///   - connectors: One per transport: each makes the camera objects for the addresses of its kind.
    ///   - routingTable: Reads the routing table for gateway descriptors; the kernel's by default.
    public init(
        connectors: [any CameraConnector],
        routingTable: @escaping @Sendable () throws -> RoutingTable = { try RoutingTable.current() }
    ) {
        let connectors = Locked(connectors)
        self.connectors = connectors
        manualDiscovery = ManualCameraDiscovery(connectors: { connectors.withLock { $0 } }, routingTable: routingTable)
    }

    /// Adds a transport's connector, asked after those of its kind there already.
    public func register(_ connector: any CameraConnector) {
        connectors.withLock { $0.append(connector) }
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
    private let connectors: @Sendable () -> [any CameraConnector]
    private let routingTable: @Sendable () throws -> RoutingTable

    init(
        connectors: @escaping @Sendable () -> [any CameraConnector],
        routingTable: @escaping @Sendable () throws -> RoutingTable
    ) {
        self.connectors = connectors
        self.routingTable = routingTable
    }

    /// Finds the camera a descriptor describes.
    ///
    /// - Throws: ``ViewfinderError`` with ``ViewfinderError/Code/notFound`` when the routing table has no gateway
    ///   for the descriptor, ``ViewfinderError/Code/notAvailable`` for a family Viewfinder cannot talk to, or
    ///   ``ViewfinderError/Code/connectionFailed`` or ``ViewfinderError/Code/timeout`` when no camera answers.
    public func discover(_ descriptor: ManualCameraDescriptor) async throws -> any Camera {
        var gateway: String?
        do {
            let address = try address(of: descriptor)
            switch descriptor.location {
            case .suggestedGateway, .gatewayOfInterface: gateway = address.host
            case .address, .usb: break
            }
            return try await camera(of: descriptor.family, at: address)
        } catch let error as ViewfinderError {
            // The address found, where the descriptor named a gateway rather than the address itself.
            let place = gateway.map { " (\($0))" } ?? ""
            throw ViewfinderError(
                error.code, "cannot find \(descriptor)\(place): \(error.message)", responseCode: error.responseCode,
                errno: error.errno)
        }
    }

    /// The camera that the first connector for `address`'s kind that speaks to `family` makes.
    ///
    /// A connector that answers ``ViewfinderError/Code/notAvailable`` for the family leaves the camera to the next of
    /// its kind, and when all do, the last one's reason is given.
    private func camera(of family: CameraFamily, at address: CameraAddress) async throws -> any Camera {
        let candidates = connectors().filter { $0.addressKind == address.kind }
        var refusal = ViewfinderError(.notAvailable, "no transport Viewfinder has reaches cameras over \(address.kind)")
        for connector in candidates {
            do {
                return try await connector.camera(of: family, at: address)
            } catch let error as ViewfinderError where error.code == .notAvailable {
                refusal = error
            }
        }
        throw refusal
    }

    /// The address a descriptor names, from the routing table for the gateway descriptors.
    private func address(of descriptor: ManualCameraDescriptor) throws -> CameraAddress {
        switch descriptor.location {
        case .address(let host):
            return .network(host: host, port: descriptor.port, path: descriptor.path)
        case .usb(let selector):
            return .usb(selector)
        case .suggestedGateway:
            guard let gateway = try routingTable().defaultGateway else {
                throw ViewfinderError(
                    .notFound,
                    "the routing table has no default route; join the camera's WiFi network, or name the interface "
                        + "or the camera's address")
            }
            return .network(host: gateway, port: descriptor.port, path: descriptor.path)
        case .gatewayOfInterface(let interface):
            return .network(
                host: try routingTable().gateway(ofInterface: interface), port: descriptor.port, path: descriptor.path)
        }
    }

    /// Finds the camera a descriptor describes, then calls `completionHandler` on `completionQueue` with it or the
    /// error.
    public func discover(
        _ descriptor: ManualCameraDescriptor,
        completionQueue: DispatchQueue = .global(),
        completionHandler: @escaping @Sendable (Result<any Camera, any Error>) -> Void
    ) {
        Task {
            let result: Result<any Camera, any Error>
            do {
                result = .success(try await discover(descriptor))
            } catch {
                result = .failure(error)
            }
            completionQueue.async { completionHandler(result) }
        }
    }
}
