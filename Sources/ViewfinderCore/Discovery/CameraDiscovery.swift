import Dispatch
import ViewfinderSystem

/// Makes a camera object for a camera found at an address, for one transport.
///
/// Each transport module provides one, such as `ViewfinderPTPIP`'s `PTPIPCameraConnector`; `CameraDiscovery.shared`
/// (in the `Viewfinder` module) asks every transport's connector.
public protocol CameraConnector: Sendable {
    /// Checks that a camera of `family` answers at `host` (on `port`, or the family's usual port), and returns a
    /// camera object for it, not yet connected.
    ///
    /// - Throws: ``ViewfinderError`` with ``ViewfinderError/Code/notAvailable`` for a family the connector does not
    ///   speak to, or ``ViewfinderError/Code/connectionFailed`` or ``ViewfinderError/Code/timeout`` when nothing
    ///   answers.
    func camera(of family: CameraFamily, at host: String, port: UInt16?) async throws -> any Camera
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

    /// Creates discovery that makes cameras with `connectors`, asked in order.
    ///
    /// - Parameters:
    ///   - connectors: One per transport: each checks an address and makes the camera object.
    ///   - routingTable: Reads the routing table for gateway descriptors; the kernel's by default.
    public init(
        connectors: [any CameraConnector],
        routingTable: @escaping @Sendable () throws -> RoutingTable = { try RoutingTable.current() }
    ) {
        let connectors = Locked(connectors)
        self.connectors = connectors
        manualDiscovery = ManualCameraDiscovery(connectors: { connectors.withLock { $0 } }, routingTable: routingTable)
    }

    /// Adds a transport's connector, asked after those there already.
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
        var host: String?
        do {
            let resolved = try address(of: descriptor)
            host = resolved
            return try await camera(of: descriptor.family, at: resolved, port: descriptor.port)
        } catch let error as ViewfinderError {
            // The address found, where the descriptor named a gateway rather than the address itself.
            let place = host.map { if case .address = descriptor.location { "" } else { " (\($0))" } } ?? ""
            throw ViewfinderError(
                error.code, "cannot find \(descriptor)\(place): \(error.message)", responseCode: error.responseCode,
                errno: error.errno)
        }
    }

    /// The camera the first connector that speaks to `family` at `host` makes; a connector that answers
    /// ``ViewfinderError/Code/notAvailable`` leaves the camera to the next, and when all do, the last one's reason
    /// is given (the most specific, as connectors for particular kinds of address come first).
    private func camera(of family: CameraFamily, at host: String, port: UInt16?) async throws -> any Camera {
        var refusal: ViewfinderError?
        for connector in connectors() {
            do {
                return try await connector.camera(of: family, at: host, port: port)
            } catch let error as ViewfinderError where error.code == .notAvailable {
                refusal = error
            }
        }
        throw refusal ?? ViewfinderError(.notAvailable, "no transport Viewfinder has reaches \(family) cameras")
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
