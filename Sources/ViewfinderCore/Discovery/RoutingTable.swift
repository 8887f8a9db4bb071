import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// The kernel's IPv4 routing table, as `/proc/net/route` shows it: where the default gateway of each interface is.
///
/// A camera that makes its own WiFi network is the gateway of the network it gives a computer, so the gateway of
/// the default route, or of the interface that joined the camera's network, is the camera's address.
///
/// ```swift
/// let table = try RoutingTable.current()
/// print(table.defaultGateway ?? "no default route")      // "192.168.1.1"
/// print(try table.gateway(ofInterface: "wlan0"))         // the camera on the WiFi interface
/// ```
public struct RoutingTable: Hashable, Sendable {
    /// One route of the table.
    public struct Route: Hashable, Sendable {
        /// The interface the route goes through, such as "wlan0".
        public var interface: String
        /// The destination network, such as "0.0.0.0" for the default route.
        public var destination: String
        /// The gateway, such as "192.168.1.1", or "0.0.0.0" for a network reached directly.
        public var gateway: String
        /// The destination's network mask, such as "255.255.255.0".
        public var mask: String
        /// The route's flags: `RTF_UP` (1), `RTF_GATEWAY` (2), `RTF_HOST` (4) and others.
        public var flags: UInt32
        /// The route's metric; the kernel prefers lower metrics.
        public var metric: Int

        /// Whether the route is up and goes through a gateway.
        public var hasGateway: Bool { flags & 0x3 == 0x3 }

        /// Whether this is a default route: every destination.
        public var isDefault: Bool { destination == "0.0.0.0" && mask == "0.0.0.0" }
    }

    /// The routes, in the kernel's order.
    public var routes: [Route]

    /// Creates a table of routes.
    public init(routes: [Route]) {
        self.routes = routes
    }

    /// Reads the table in the format of `/proc/net/route`: a header line, then one route per line of tab-separated
    /// fields, addresses in hexadecimal in the kernel's byte order.
    ///
    /// - Throws: ``ViewfinderError/Code/malformedData`` when a line does not have the fields a route needs.
    public init(parsing text: String) throws {
        var routes: [Route] = []
        for (number, line) in text.split(separator: "\n").enumerated().dropFirst() {
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            guard fields.count >= 8, let destination = UInt32(fields[1], radix: 16),
                let gateway = UInt32(fields[2], radix: 16), let flags = UInt32(fields[3], radix: 16),
                let metric = Int(fields[6]), let mask = UInt32(fields[7], radix: 16)
            else {
                throw ViewfinderError(
                    .malformedData, "line \(number + 1) of the routing table is not a route: \(line.prefix(120))")
            }
            routes.append(
                Route(
                    interface: String(fields[0]), destination: Self.address(destination),
                    gateway: Self.address(gateway),
                    mask: Self.address(mask), flags: flags, metric: metric))
        }
        self.init(routes: routes)
    }

    /// The table the kernel has now, read from `path`.
    ///
    /// - Throws: ``ViewfinderError`` when the file cannot be read (not on Linux, or `/proc` not mounted) or is not a
    ///   routing table.
    public static func current(path: String = "/proc/net/route") throws -> RoutingTable {
        try RoutingTable(parsing: try readText(path, limit: 1 << 20))
    }

    /// The gateway of the default route with the lowest metric, if there is a default route.
    public var defaultGateway: String? {
        routes.filter { $0.isDefault && $0.hasGateway }.min { $0.metric < $1.metric }?.gateway
    }

    /// The gateway of an interface: that of its default route, or else of its first route through a gateway.
    ///
    /// - Throws: ``ViewfinderError/Code/notFound`` when the interface has no route, or none through a gateway.
    public func gateway(ofInterface interface: String) throws -> String {
        let own = routes.filter { $0.interface == interface }
        guard !own.isEmpty else {
            let known = Set(routes.map(\.interface)).sorted().joined(separator: ", ")
            throw ViewfinderError(
                .notFound,
                "no interface named \(interface) has a route; interfaces with routes: \(known.isEmpty ? "none" : known)"
                    + ". Check that the interface is up and joined to the camera's network")
        }
        let gateways = own.filter(\.hasGateway)
        guard let route = gateways.filter(\.isDefault).min(by: { $0.metric < $1.metric }) ?? gateways.first else {
            throw ViewfinderError(
                .notFound,
                "\(interface) has no gateway in the routing table; a camera's own WiFi network gives its clients the "
                    + "camera as gateway: check that \(interface) joined the camera's network and got an address")
        }
        return route.gateway
    }

    /// An IPv4 address in dotted form from the kernel's little-endian hexadecimal.
    private static func address(_ value: UInt32) -> String {
        (0..<4).map { String((value >> (8 * $0)) & 0xFF) }.joined(separator: ".")
    }

    /// The text of a small file, read whole, refusing more than `limit` bytes.
    private static func readText(_ path: String, limit: Int) throws -> String {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDONLY)
        } catch {
            throw ViewfinderError(error, while: "opening \(path) to read the routing table")
        }
        do {
            return String(decoding: try file.readAll(limit: limit), as: UTF8.self)
        } catch .fileTooLarge {
            throw ViewfinderError(.malformedData, "\(path) is larger than \(limit) bytes; it is not a routing table")
        } catch {
            throw ViewfinderError(error, while: "reading \(path)")
        }
    }
}
