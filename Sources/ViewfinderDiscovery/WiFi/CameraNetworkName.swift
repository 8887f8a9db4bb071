import ViewfinderCore

/// The cameras that are their own access point and name their network after themselves, and what the name says.
///
/// Fujifilm X and GFX bodies name theirs `FUJIFILM-<model>-<suffix>` and announce nothing else on it in remote mode
/// (their camera is at 192.168.0.1), so the network a machine joined is how it finds them.
public enum CameraNetworkName {
    /// Where a camera whose network gives no gateway is: Fujifilm bodies' own address on their network.
    public static let fujifilmAddress = "192.168.0.1"

    /// The camera a network joined names, at `gateway` (the interface's gateway in the routing table, where it has
    /// one); `nil` for a network no camera is known to name so.
    public static func camera(on network: JoinedWirelessNetwork, gateway: String?) -> DiscoveredCamera? {
        let name = network.name
        let prefix = "FUJIFILM-"
        guard name.hasPrefix(prefix), name.count > prefix.count else { return nil }
        let rest = name.dropFirst(prefix.count)
        // The model is what comes before the last dash; the suffix after it tells bodies of one model apart.
        let model = rest.lastIndex(of: "-").map { String(rest[..<$0]) } ?? String(rest)
        return DiscoveredCamera(
            id: "wifi-\(name)", family: .fujifilm, manufacturer: "FUJIFILM", model: model.isEmpty ? "" : model,
            name: name, address: .network(host: gateway ?? fujifilmAddress, port: nil), foundBy: .wirelessNetwork)
    }
}
