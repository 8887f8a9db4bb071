import Viewfinder
import ViewfinderSystem

/// A camera found by searching the network or attached by USB, as `discover` prints it.
struct DiscoveredCameraRecord: Encodable {
    var id: String
    var name: String
    var manufacturer: String
    var model: String
    var family: String
    var serialNumber: String?
    var host: String
    var port: Int?
    var foundBy: [String]
    /// The address as the table shows it: `usb:1:4`, `192.168.1.2:15740`, or an IPv6 host in brackets.
    private let place: String

    private enum CodingKeys: String, CodingKey {
        case id, name, manufacturer, model, family, serialNumber, host, port, foundBy
    }

    init(_ camera: DiscoveredCamera) {
        id = camera.id
        name = camera.name
        manufacturer = camera.manufacturer
        model = camera.model
        family = camera.family.rawValue
        serialNumber = camera.serialNumber
        host = camera.address.host ?? camera.address.description
        port = camera.address.port.map(Int.init)
        foundBy = camera.foundBy.description.split(separator: "+").map(String.init)
        switch camera.address {
        case .network(let host, nil, _): place = HostPort.bracketed(host)
        default: place = camera.address.description
        }
    }

    /// The table row: name, model, family, address, how it was found, ID.
    var row: [String] {
        [name, model, family, place, foundBy.joined(separator: "+"), id]
    }

    static let header = ["NAME", "MODEL", "FAMILY", "ADDRESS", "FOUND BY", "ID"]
}

/// Searching the network for cameras that announce themselves, and USB for attached ones, for `discover` and
/// `--camera`.
enum NetworkSearch {
    /// The cameras found within `duration`, by name; `family` keeps only those of that family.
    static func cameras(within duration: Duration, family: CameraFamily?) async -> [DiscoveredCamera] {
        let discovery = CameraDiscovery.shared
        discovery.beginSearching()
        try? await Task.sleep(for: duration)
        let found = discovery.availableCameras.filter { family == nil || $0.family == family }
        discovery.stopSearching()
        return found
    }

    /// The first camera whose name, serial number or ID is `name` (without regard to case), waiting up to
    /// `timeout` for it to announce itself.
    static func camera(named name: String, timeout: Duration) async -> DiscoveredCamera? {
        let discovery = CameraDiscovery.shared
        discovery.beginSearching()
        defer { discovery.stopSearching() }
        let deadline = ContinuousClock.now + timeout
        let wanted = name.lowercased()
        while ContinuousClock.now < deadline {
            if let camera = discovery.availableCameras.first(where: { camera in
                [camera.name, camera.serialNumber ?? "", camera.id].contains { $0.lowercased() == wanted }
            }) {
                return camera
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }
}
