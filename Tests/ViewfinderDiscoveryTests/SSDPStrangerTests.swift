import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderDiscovery

#if canImport(Glibc)
import Glibc
#endif

/// What SSDP discovery does with what a stranger on the network sends: announcements that point elsewhere, hosts
/// that never answer, and searches sent to this host alone.
@Suite(.serialized, .timeLimit(.minutes(3))) struct SSDPStrangerTests {
    static let service = "urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1"

    static func alive(_ device: String, location: String) -> SSDPMessage {
        SSDPMessage(
            kind: .notify,
            headers: [
                "NT": service, "NTS": "ssdp:alive", "USN": "\(device)::\(service)", "LOCATION": location,
                "CACHE-CONTROL": "max-age=1800",
            ])
    }

    /// A TCP server on loopback that takes connections on a thread of its own and answers each with `answer`, or
    /// never answers when it is `nil`, until it is closed.
    final class DescriptionHost: Sendable {
        let port: UInt16
        private let listener: Socket
        private let accepted: Locked<[Socket]>
        private let thread: PlatformThread

        init(answering answer: [UInt8]?) throws {
            let listener = try Socket.listen(host: "127.0.0.1", port: 0)
            let accepted = Locked<[Socket]>([])
            self.listener = listener
            self.accepted = accepted
            port = listener.localPort
            thread = try PlatformThread(name: "test-describe") {
                // Serves until close() shuts the listener down: under the thread sanitizer with the whole suite on
                // two cores a test can wait longer than a minute for its turn before it fetches.
                while true {
                    let client: Socket
                    do {
                        guard let accepted = try listener.accept(timeout: .seconds(60)) else { continue }
                        client = accepted
                    } catch {
                        return
                    }
                    guard let answer else {
                        accepted.withLock { $0.append(client) }
                        continue
                    }
                    var request = [UInt8](repeating: 0, count: 4096)
                    _ = request.withUnsafeMutableBytes {
                        try? client.receive(into: $0, timeout: .seconds(5), while: "")
                    }
                    try? client.send(answer, timeout: .seconds(5), while: "answering")
                    client.close()
                }
            }
        }

        /// The connections taken without an answer so far.
        var waitingConnections: Int { accepted.withLock { $0.count } }

        /// Closes the connections taken without an answer, which ends their fetches.
        func dropConnections() {
            for socket in accepted.withLock({ $0 }) { socket.close() }
        }

        func close() {
            listener.shutdown()
            thread.join()
            listener.close()
            dropConnections()
        }
    }

    static let describedCanon: [UInt8] = {
        let body = SSDPMessageTests.canonDescription
        return Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body
    }()

    /// The simulated announcer of a Canon EOS 5D Mark IV, in the camera's namespace.
    static func announcer(in pair: NetworkNamespacePair) async throws -> SSDPAnnouncer {
        try await NetworkNamespacePair.run(in: pair.camera) {
            try SSDPAnnouncer(
                .init(
                    udn: "uuid:00000000-0000-0000-0000-00000000c0de", types: [service], manufacturer: "Canon Inc.",
                    modelName: "Canon EOS 5D Mark IV", friendlyName: "Studio", serialNumber: "CN0000001",
                    address: pair.gateway))
        }
    }

    /// The searcher's state for messages given to it by hand, its reports kept.
    static func search(fetchTimeout: Duration = .seconds(30)) throws -> (
        SSDPSearcher.Search, Locked<[CameraSearchEvent]>
    ) {
        let events = Locked<[CameraSearchEvent]>([])
        let search = SSDPSearcher.Search(
            notifications: try Socket.udp(), searches: try Socket.udp(),
            group: try SocketAddress(numeric: SSDPMessage.ipv4Group, port: SSDPMessage.port),
            fetches: try DescriptionFetches(timeout: fetchTimeout),
            configuration: SSDPSearcher.Configuration(fetchTimeout: fetchTimeout),
            report: { event in events.withLock { $0.append(event) } })
        return (search, events)
    }

    /// An announcement whose LOCATION is on another host than its sender's is not followed, so nothing is fetched and
    /// nothing found; the same camera announced with its description on itself is found, only a byebye from its own
    /// host loses it, and an answer it sent before it left, arriving late, does not bring it back.
    @Test func onlyASendersOwnDescriptionIsReadAndOnlyItsByebyeCounts() async throws {
        let host = try DescriptionHost(answering: Self.describedCanon)
        defer { host.close() }
        var (search, events) = try Self.search()
        let device = "uuid:00000000-0000-0000-0001-60128B7C39A2"
        let location = "http://127.0.0.1:\(host.port)/upnp/CameraDevDesc.xml"
        search.take(Self.alive(device, location: location), from: "10.0.0.5")
        search.take(Self.alive(device, location: "http://169.254.169.254/latest/meta-data/"), from: "10.0.0.5")
        #expect(search.waiting.isEmpty, "a description on another host than the sender's is being read")

        search.take(Self.alive(device, location: location), from: "127.0.0.1")
        #expect(search.waiting.keys.sorted() == [location])
        var finished: [DescriptionFetches.Finished] = []
        try await waitUntil("the description to be read") {
            finished += search.fetches.takeFinished()
            return !finished.isEmpty
        }
        for fetch in finished { search.described(fetch.location, fetch.description) }
        guard case .seen(let key, let camera, _)? = events.withLock({ $0.last }) else {
            throw TestFailure("the camera was not reported: \(events.withLock { $0 })")
        }
        #expect(key == "ssdp:\(device)" && camera.address.host == "127.0.0.1" && camera.model == "Canon EOS R6")

        let byebye = SSDPMessage(
            kind: .notify, headers: ["NT": Self.service, "NTS": "ssdp:byebye", "USN": "\(device)::\(Self.service)"])
        search.take(byebye, from: "10.0.0.5")
        #expect(events.withLock { $0.count } == 1, "a stranger's byebye lost the camera")
        search.take(byebye, from: "127.0.0.1")
        #expect(events.withLock { $0.last } == .gone(key: "ssdp:\(device)"))
        search.take(Self.alive(device, location: location), from: "127.0.0.1")
        #expect(events.withLock { $0.count } == 2, "an answer in flight brought back a camera that said goodbye")
        #expect(search.waiting.isEmpty)
    }

    /// Descriptions are read a few at a time: hosts that never answer hold the places until they give up, and a
    /// location asked for again while it is read is not read twice.
    @Test func descriptionsAreReadAFewAtATime() async throws {
        let host = try DescriptionHost(answering: nil)
        defer { host.close() }
        let fetches = try DescriptionFetches(timeout: .seconds(60))
        let locations = (0...DescriptionFetches.maximumOutstanding).map { "http://127.0.0.1:\(host.port)/\($0).xml" }
        for location in locations.dropLast() {
            #expect(fetches.start(location))
        }
        #expect(fetches.start(locations[0]), "a location being read is being read")
        #expect(!fetches.start(locations.last!), "more descriptions are read at once than allowed")
        try await waitUntil("the host to hold every fetch") {
            host.waitingConnections == DescriptionFetches.maximumOutstanding
        }
        #expect(fetches.takeFinished().isEmpty)

        host.dropConnections()
        var finished: [DescriptionFetches.Finished] = []
        try await waitUntil("the fetches to end") {
            finished += fetches.takeFinished()
            return finished.count == DescriptionFetches.maximumOutstanding
        }
        #expect(
            Set(finished.map(\.location)) == Set(locations.dropLast()) && finished.allSatisfy { $0.description == nil })
        #expect(fetches.start(locations.last!))
        try await waitUntil("the host to hold the last fetch") {
            host.waitingConnections == DescriptionFetches.maximumOutstanding + 1
        }
        host.dropConnections()
        try await waitUntil("the last fetch to end") { !fetches.takeFinished().isEmpty }
    }

    /// A camera whose description never comes (a host that takes the connection and says nothing) holds up no
    /// other: the searcher in the app's namespace finds the announcer that comes after it while that fetch waits.
    @Test func aHostThatNeverAnswersHoldsUpNoOtherCamera() async throws {
        let pair = try await MulticastDNSSearchTests.namespaces()
        do {
            let discovery = CameraDiscovery(connectors: [])
            discovery.register(
                SSDPSearcher(configuration: .init(searchInterval: .seconds(1), fetchTimeout: .seconds(600))))
            try await NetworkNamespacePair.run(in: pair.app) { discovery.beginSearching() }
            // The silent host's announcement goes first, from the camera's side, to the group, until the searcher (which
            // joins the group as it starts) has taken it and asked the host: its connection waits, unanswered.
            let (silent, sender) = try await NetworkNamespacePair.run(in: pair.camera) {
                let sender = try Socket.udp(bindingTo: pair.gateway)
                try sender.setMulticastSending(from: pair.gateway, timeToLive: 2)
                return (try Socket.listen(host: pair.gateway, port: 0), sender)
            }
            defer {
                silent.close()
                sender.close()
            }
            let alive = Self.alive(
                "uuid:00000000-0000-0000-0000-00000000dead",
                location: "http://\(pair.gateway):\(silent.localPort)/desc.xml")
            let asked = try await offThePool {
                for _ in 0..<60 {
                    try sender.send(
                        alive.encoded(), to: try SocketAddress(numeric: SSDPMessage.ipv4Group, port: SSDPMessage.port),
                        timeout: .seconds(1), while: "announcing")
                    if try Poll.wait(silent.descriptor, for: Poll.readable, until: .now + .seconds(1)) != 0 {
                        return true
                    }
                }
                return false
            }
            try #require(asked, "the searcher never asked the silent host for its description")
            let announcer = try await Self.announcer(in: pair)
            try await waitUntil("the announced camera to be found") {
                discovery.availableCameras.contains { $0.model == "Canon EOS 5D Mark IV" }
            }
            #expect(discovery.availableCameras.count == 1, "\(discovery.availableCameras)")
            try silent.acceptNow()?.close()
            await offThePool { announcer.stop() }
            await offThePool { discovery.stopSearching() }
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }

    /// The announcer answers a search sent to the SSDP group, and not one sent to its host alone, whose sender
    /// address anyone could forge to have the answers sent to someone else.
    @Test func theAnnouncerAnswersSearchesSentToTheGroupOnly() async throws {
        let pair = try await MulticastDNSSearchTests.namespaces()
        do {
            let announcer = try await Self.announcer(in: pair)
            let (direct, grouped) = try await NetworkNamespacePair.run(in: pair.app) {
                let search = SSDPMessage.search(for: Self.service).encoded()
                let direct = try Socket.udp(bindingTo: pair.appAddress)
                let grouped = try Socket.udp(bindingTo: pair.appAddress)
                defer {
                    direct.close()
                    grouped.close()
                }
                try direct.send(
                    search, to: try SocketAddress(numeric: pair.gateway, port: SSDPMessage.port), timeout: .seconds(1),
                    while: "searching")
                try grouped.setMulticastSending(from: pair.appAddress, timeToLive: 2)
                try grouped.send(
                    search, to: try SocketAddress(numeric: SSDPMessage.ipv4Group, port: SSDPMessage.port),
                    timeout: .seconds(1), while: "searching")
                var buffer = [UInt8](repeating: 0, count: SSDPMessage.maximumLength)
                func answer(on socket: Socket, until deadline: ContinuousClock.Instant) throws -> SSDPMessage? {
                    let datagram = try buffer.withUnsafeMutableBytes { raw in
                        try socket.receiveDatagram(into: raw, until: deadline, while: "waiting for an answer")
                    }
                    return try datagram.map { try SSDPMessage(decoding: Array(buffer[..<$0.count])) }
                }
                // The group's answer comes after any answer to the direct search, which was sent first.
                let answered = try answer(on: grouped, until: .now + .seconds(30))
                return (try answer(on: direct, until: .now), answered)
            }
            await offThePool { announcer.stop() }
            #expect(grouped?.kind == .response && grouped?.target == Self.service, "\(String(describing: grouped))")
            #expect(direct == nil, "a search sent to the host alone was answered: \(String(describing: direct))")
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }
}
