import ViewfinderCore
import ViewfinderSystem

/// Finds cameras that announce `_ptp._tcp` over multicast DNS (RFC 6762, 6763), as Nikon cameras and PTP/IP
/// responders do.
///
/// It listens on port 5353 (shared with any other mDNS stack on the host) on every multicast interface, over IPv4
/// and IPv6 (224.0.0.251 and ff02::fb; interfaces that come up later are joined as they do), asks for
/// `_ptp._tcp.local` pointers at once and then at doubling intervals up to ``Configuration/queryInterval``, asks
/// again for an instance's SRV, TXT or address when an answer lacks them, and reports goodbyes (TTL 0). A camera's
/// announcement lasts its TTL, at most ``Configuration/lifetime``, so one that stops answering the repeated
/// questions is lost. The wire format is Viewfinder's own: libavahi-client would need a running
/// avahi-daemon, which a library cannot assume.
public final class MulticastDNSSearcher: CameraSearcher {
    /// How often to ask, and how long an answer lasts.
    public struct Configuration: Sendable {
        /// The longest wait between questions, which double from a second up to it.
        public var queryInterval: Duration
        /// The longest an announcement lasts without being renewed, whatever its TTL.
        public var lifetime: Duration

        /// A configuration; by default questions go at most a minute apart and an answer lasts 150 seconds.
        public init(queryInterval: Duration = .seconds(60), lifetime: Duration = .seconds(150)) {
            self.queryInterval = max(queryInterval, .seconds(1))
            self.lifetime = max(lifetime, .seconds(1))
        }
    }

    /// The multicast group mDNS uses on IPv4.
    static let group = "224.0.0.251"
    /// How often the searcher looks for interfaces that came up.
    static let interfaceCheckInterval = Duration.seconds(5)
    /// The multicast group mDNS uses on IPv6, link-local.
    static let ipv6Group = "ff02::fb"

    /// A socket, the group it asks, and the interfaces it asks on.
    private struct Channel: Sendable {
        let socket: Socket
        let group: SocketAddress
        var interfaces: [MulticastInterface]

        /// Joins the group on the interfaces that came up since, such as a camera's WiFi joined after searching
        /// began; returns whether there was any.
        mutating func joinNewInterfaces() -> Bool {
            let before = interfaces.count
            for interface in MulticastInterface.all() where !interfaces.contains(interface) {
                let joined =
                    group.isIPv6
                    ? (try? socket.joinMulticastGroup(group, interfaceIndex: interface.index)) != nil
                    : (try? socket.joinMulticastGroup(group, interface: interface.address)) != nil
                if joined { interfaces.append(interface) }
            }
            return interfaces.count > before
        }

        /// Sends `message` to the group on every interface.
        func send(_ message: DNSMessage) {
            guard let bytes = try? message.encoded() else { return }
            for interface in interfaces {
                if group.isIPv6 {
                    socket.setIPv6MulticastSending(fromInterfaceIndex: interface.index)
                } else {
                    try? socket.setMulticastSending(from: interface.address, loopback: true)
                }
                try? socket.send(bytes, to: group, timeout: .milliseconds(100), while: "asking multicast DNS")
            }
        }
    }
    /// Its port.
    static let port: UInt16 = 5353

    private let configuration: Configuration
    private let loop = Locked<SocketLoop?>(nil)

    /// A searcher.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    deinit {
        stopSearching()
    }

    /// Joins the mDNS groups (224.0.0.251 and ff02::fb) on every multicast interface and starts asking, on a
    /// thread of its own; interfaces that come up later (a camera's WiFi joined after searching began) are joined
    /// at the next question.
    ///
    /// - Throws: `ViewfinderError` when port 5353 cannot be bound.
    public func startSearching(report: @escaping @Sendable (CameraSearchEvent) -> Void) throws {
        stopSearching()
        let socket: Socket
        do {
            socket = try Socket.udp(bindingTo: "0.0.0.0", port: Self.port, sharingPort: true)
        } catch {
            throw ViewfinderError(error)
        }
        // IPv6 where the host has it, on a socket of its own. Each channel joins its group on the interfaces up
        // now, and on those that come up later at each question.
        let group = try SocketAddress(numeric: Self.group, port: Self.port)
        let ipv6Group = try SocketAddress(numeric: Self.ipv6Group, port: Self.port)
        let ipv6 = try? Socket.udp(bindingTo: "::", port: Self.port, sharingPort: true)
        let channels =
            [Channel(socket: socket, group: group, interfaces: [])]
            + (ipv6.map { [Channel(socket: $0, group: ipv6Group, interfaces: [])] } ?? [])
        let started = try SocketLoop(name: "mdns-search", sockets: channels.map(\.socket)) { [configuration] loop in
            Self.search(on: channels, configuration: configuration, loop: loop, report: report)
        }
        loop.withLock { $0 = started }
    }

    /// Stops asking and listening, and waits for the search thread to end.
    public func stopSearching() {
        loop.withLock { loop in
            defer { loop = nil }
            return loop
        }?.stop()
    }

    /// The search loop: questions on schedule, answers as they come, over every channel.
    private static func search(
        on channels: [Channel], configuration: Configuration, loop: SocketLoop,
        report: @Sendable (CameraSearchEvent) -> Void
    ) {
        var channels = channels
        var cache = MulticastDNSCache()
        var interval = Duration.seconds(1)
        var nextQuery = ContinuousClock.now
        var nextInterfaceCheck = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: DNSMessage.maximumLength)
        while !loop.isStopping {
            if ContinuousClock.now >= nextInterfaceCheck {
                // A new network is asked at once, and the questions start again from a second apart.
                let joined = channels.indices.map { channels[$0].joinNewInterfaces() }
                if joined.contains(true) {
                    (nextQuery, interval) = (.now, .seconds(1))
                }
                nextInterfaceCheck = .now + Self.interfaceCheckInterval
            }
            if ContinuousClock.now >= nextQuery {
                let question = DNSQuestion(name: MulticastDNSCache.service, type: DNSRecordType.ptr)
                for channel in channels { channel.send(DNSMessage(questions: [question])) }
                nextQuery = .now + interval
                interval = min(interval * 2, configuration.queryInterval)
            }
            let deadline = min(nextQuery, .now + .milliseconds(100))
            let ready =
                (try? Poll.wait(
                    channels.map { Poll.Request($0.socket.descriptor, for: Poll.readable) }, until: deadline))
                ?? []
            for (channel, events) in zip(channels, ready) where events != 0 {
                let received = buffer.withUnsafeMutableBytes { raw in
                    try? channel.socket.receiveDatagram(into: raw, until: .now, while: "listening for multicast DNS")
                }
                guard let datagram = received ?? nil, !datagram.isTruncated,
                    let message = try? DNSMessage(decoding: Array(buffer[..<datagram.count]))
                else { continue }
                for event in cache.take(message, from: datagram.sender.scopedHost) {
                    if case .seen(let key, let camera, let lifetime) = event {
                        report(.seen(key: key, camera: camera, lifetime: min(lifetime, configuration.lifetime)))
                    } else {
                        report(event)
                    }
                }
                let missing = cache.missing
                if !missing.isEmpty { channel.send(DNSMessage(questions: Array(missing.prefix(16)))) }
            }
        }
    }
}
