import ViewfinderCore
import ViewfinderSystem

/// Reports the cameras whose own WiFi network this machine has joined to `CameraDiscovery`.
///
/// Cameras that are their own access point and announce nothing in remote mode (Fujifilm X and GFX bodies) are
/// found by the network's name (``CameraNetworkName``), at the gateway of the interface that joined it. The searcher
/// asks the kernel which networks are joined when it starts and then every `interval` on a thread of its own; a
/// camera is lost when its network is left. `CameraDiscovery.shared` registers one.
///
/// ```swift
/// let discovery = CameraDiscovery(connectors: [PTPIPCameraConnector()])
/// discovery.register(WirelessNetworkSearcher())
/// discovery.beginSearching()
/// ```
public final class WirelessNetworkSearcher: CameraSearcher {
    private let interval: Duration
    private let networks: @Sendable () throws(ViewfinderError) -> [JoinedWirelessNetwork]
    private let routingTable: @Sendable () throws -> RoutingTable
    private let thread = Locked<WakeableThread?>(nil)
    private let failure = Locked<ViewfinderError?>(nil)

    /// Creates a searcher.
    ///
    /// - Parameters:
    ///   - interval: How often to ask which networks are joined.
    ///   - networks: The networks joined; the kernel's by default.
    ///   - routingTable: The routing table, for each interface's gateway; the kernel's by default.
    public init(
        interval: Duration = .seconds(3),
        networks: @escaping @Sendable () throws(ViewfinderError) -> [JoinedWirelessNetwork] = {
            () throws(ViewfinderError) in try JoinedWirelessNetwork.all()
        },
        routingTable: @escaping @Sendable () throws -> RoutingTable = { try RoutingTable.current() }
    ) {
        self.interval = max(interval, .milliseconds(10))
        self.networks = networks
        self.routingTable = routingTable
    }

    /// How long a camera stays found without being announced again: four looks, and at least 10 s, so a thread that
    /// the machine keeps waiting does not lose it (a network left is reported as gone at the next look).
    private var lifetime: Duration { max(interval * 4, .seconds(10)) }

    /// Why the last look at the joined networks failed, or `nil` when it succeeded; the cameras reported stay as the
    /// last look that succeeded found them.
    public var lookError: ViewfinderError? { failure.withLock { $0 } }

    /// Reports the cameras whose network is joined now, then each network joined or left, until ``stopSearching()``.
    ///
    /// - Throws: `ViewfinderError` when the machine cannot be asked which networks are joined, or no thread could be
    ///   started.
    public func startSearching(report: @escaping @Sendable (CameraSearchEvent) -> Void) throws {
        stopSearching()
        let initial = try look(known: [:], report: report)
        let interval = interval
        let started = Result { () throws(Errno) in
            try WakeableThread(name: "wifi-search") { [weak self] wakeup in
                var known = initial
                while (try? Poll.wait(wakeup.descriptor, for: Poll.readable, until: .now + interval)) == 0 {
                    guard let self else { return }
                    if let found = try? look(known: known, report: report) {
                        known = found
                    } else {
                        // A look that failed keeps what was found: announced again, it does not run out meanwhile.
                        for (key, camera) in known.sorted(by: { $0.key < $1.key }) {
                            report(.seen(key: key, camera: camera, lifetime: lifetime))
                        }
                    }
                }
            }
        }
        switch started {
        case .success(let started): thread.withLock { $0 = started }
        case .failure(let error):
            throw ViewfinderError(.io, "cannot start watching the joined WiFi networks", errno: error.rawValue)
        }
    }

    /// Stops asking; nothing is reported after it returns.
    public func stopSearching() {
        let stopped = thread.withLock { thread in
            defer { thread = nil }
            return thread
        }
        stopped?.stop()
    }

    /// Asks which networks are joined and reports the cameras they name, returning them by key.
    ///
    /// Each camera is reported seen (again, which keeps it found), and each one of `known` whose network was left as
    /// gone.
    private func look(known: [String: DiscoveredCamera], report: @Sendable (CameraSearchEvent) -> Void)
        throws(ViewfinderError) -> [String: DiscoveredCamera]
    {
        let joined: [JoinedWirelessNetwork]
        do {
            joined = try networks()
            failure.withLock { $0 = nil }
        } catch {
            failure.withLock { $0 = error }
            throw error
        }
        let table = try? routingTable()
        var found: [String: DiscoveredCamera] = [:]
        for network in joined {
            let gateway = try? table?.gateway(ofInterface: network.interface)
            guard let camera = CameraNetworkName.camera(on: network, gateway: gateway) else { continue }
            found["wifi:\(network.interface):\(network.name)"] = camera
        }
        for (key, camera) in found.sorted(by: { $0.key < $1.key }) {
            report(.seen(key: key, camera: camera, lifetime: lifetime))
        }
        for key in known.keys.sorted() where found[key] == nil {
            report(.gone(key: key))
        }
        return found
    }
}
