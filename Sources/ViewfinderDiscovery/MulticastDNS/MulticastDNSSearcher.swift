import ViewfinderCore
import ViewfinderSystem

/// Finds cameras that announce `_ptp._tcp` over multicast DNS (RFC 6762, 6763), as Nikon cameras and PTP/IP
/// responders do.
///
/// It listens on port 5353 (shared with any other mDNS stack on the host) on every multicast interface, asks for
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

    private struct Run {
        let socket: Socket
        let thread: PlatformThread
        let stopping: Locked<Bool>
    }

    /// The multicast group mDNS uses on IPv4.
    static let group = "224.0.0.251"
    /// Its port.
    static let port: UInt16 = 5353

    private let configuration: Configuration
    private let run = Locked<Run?>(nil)

    /// A searcher.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    deinit {
        stopSearching()
    }

    /// Joins the mDNS group on every multicast interface and starts asking, on a thread of its own.
    ///
    /// - Throws: `ViewfinderError` when port 5353 cannot be bound or no interface takes part in
    ///   multicast.
    public func startSearching(report: @escaping @Sendable (CameraSearchEvent) -> Void) throws {
        stopSearching()
        let socket: Socket
        do {
            socket = try Socket.udp(bindingTo: "0.0.0.0", port: Self.port, sharingPort: true)
        } catch {
            throw ViewfinderError(error)
        }
        let interfaces = MulticastInterface.all()
        let group = try SocketAddress(numeric: Self.group, port: Self.port)
        let joined = interfaces.filter { (try? socket.joinMulticastGroup(group, interface: $0.address)) != nil }
        guard !joined.isEmpty else {
            socket.close()
            throw ViewfinderError(
                .notAvailable, "no network interface takes part in multicast, so multicast DNS cannot search")
        }
        let stopping = Locked(false)
        let thread: PlatformThread
        do {
            thread = try PlatformThread(name: "mdns-search") { [configuration] in
                Self.search(
                    on: socket, interfaces: joined, group: group, configuration: configuration, stopping: stopping,
                    report: report)
            }
        } catch {
            socket.close()
            throw ViewfinderError(.io, "cannot start multicast DNS: \(error)")
        }
        run.withLock { $0 = Run(socket: socket, thread: thread, stopping: stopping) }
    }

    /// Stops asking and listening, and waits for the search thread to end.
    public func stopSearching() {
        guard
            let run = run.withLock({ run in
                defer { run = nil }
                return run
            })
        else { return }
        run.stopping.withLock { $0 = true }
        run.thread.join()
        run.socket.close()
    }

    /// The search loop: questions on schedule, answers as they come.
    private static func search(
        on socket: Socket, interfaces: [MulticastInterface], group: SocketAddress, configuration: Configuration,
        stopping: Locked<Bool>, report: @Sendable (CameraSearchEvent) -> Void
    ) {
        var cache = MulticastDNSCache()
        var interval = Duration.seconds(1)
        var nextQuery = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: DNSMessage.maximumLength)
        while !stopping.withLock({ $0 }) {
            if ContinuousClock.now >= nextQuery {
                let question = DNSQuestion(name: MulticastDNSCache.service, type: DNSRecordType.ptr)
                send(DNSMessage(questions: [question]), on: socket, interfaces: interfaces, group: group)
                nextQuery = .now + interval
                interval = min(interval * 2, configuration.queryInterval)
            }
            let deadline = min(nextQuery, .now + .milliseconds(100))
            let received = buffer.withUnsafeMutableBytes { raw in
                try? socket.receiveDatagram(into: raw, until: deadline, while: "listening for multicast DNS")
            }
            guard let datagram = received ?? nil, !datagram.isTruncated,
                let message = try? DNSMessage(decoding: Array(buffer[..<datagram.count]))
            else { continue }
            for event in cache.take(message, from: datagram.sender.host) {
                if case .seen(let key, let camera, let lifetime) = event {
                    report(.seen(key: key, camera: camera, lifetime: min(lifetime, configuration.lifetime)))
                } else {
                    report(event)
                }
            }
            let missing = cache.missing
            if !missing.isEmpty {
                send(DNSMessage(questions: Array(missing.prefix(16))), on: socket, interfaces: interfaces, group: group)
            }
        }
    }

    private static func send(
        _ message: DNSMessage, on socket: Socket, interfaces: [MulticastInterface], group: SocketAddress
    ) {
        guard let bytes = try? message.encoded() else { return }
        for interface in interfaces {
            try? socket.setMulticastSending(from: interface.address, loopback: true)
            try? socket.send(bytes, to: group, timeout: .milliseconds(100), while: "asking multicast DNS")
        }
    }
}
