import ViewfinderCore
import ViewfinderSystem

/// Finds cameras that announce themselves over SSDP (UPnP), as Canon and Sony cameras do.
///
/// It listens for NOTIFY on the SSDP group (port 1900, shared with any other SSDP stack of the host) on every
/// multicast interface, and sends M-SEARCH for the camera services from a port of its own, at once, after a second
/// and three seconds, then every ``Configuration/searchInterval``; it takes answers as `HTTP/1.1 200 OK` or as a
/// unicast NOTIFY. For each camera it reads the device description at the LOCATION once (one HTTP GET, at most
/// 72 KiB within ``Configuration/fetchTimeout``) for its maker, model, name, UDN and serial number, and reports
/// `ssdp:byebye` as a loss. An announcement lasts its `max-age`, at most ``Configuration/lifetime``, so a camera
/// that stops answering the repeated searches is lost.
public final class SSDPSearcher: CameraSearcher {
    /// How often to search, how long an answer lasts, how long a description may take.
    public struct Configuration: Sendable {
        /// The wait between searches after the first three.
        public var searchInterval: Duration
        /// The longest an announcement lasts without being renewed, whatever its `max-age`.
        public var lifetime: Duration
        /// The longest a device description may take to arrive.
        public var fetchTimeout: Duration

        /// A configuration; by default a search a minute, announcements that last 150 seconds, and 2 seconds for a
        /// description.
        public init(
            searchInterval: Duration = .seconds(60), lifetime: Duration = .seconds(150),
            fetchTimeout: Duration = .seconds(2)
        ) {
            self.searchInterval = max(searchInterval, .seconds(1))
            self.lifetime = max(lifetime, .seconds(1))
            self.fetchTimeout = max(fetchTimeout, .milliseconds(100))
        }
    }

    /// The service and device types cameras announce (Canon's EOS and PowerShot services, Sony's Remote API, and
    /// the MTP null service of cameras in "send to computer" mode).
    public static let cameraTargets = [
        "urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1",
        "urn:schemas-canon-com:service:ICPO-SmartPhoneEOSSystemService:1",
        "urn:schemas-canon-com:service:MobileConnectedCameraService:1",
        "urn:schemas-sony-com:service:ScalarWebAPI:1",
        "urn:microsoft-com:service:MtpNullService:1",
        "urn:microsoft-com:device:mtp:1",
    ]

    private let configuration: Configuration
    private let loop = Locked<SocketLoop?>(nil)

    /// A searcher.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    deinit {
        stopSearching()
    }

    /// Joins the SSDP group on every multicast interface and starts searching, on a thread of its own; interfaces
    /// that come up later are joined at the next search.
    ///
    /// - Throws: `ViewfinderError` when port 1900 cannot be bound.
    public func startSearching(report: @escaping @Sendable (CameraSearchEvent) -> Void) throws {
        stopSearching()
        let notifications: Socket
        let searches: Socket
        do throws(SocketError) {
            notifications = try Socket.udp(bindingTo: "0.0.0.0", port: SSDPMessage.port, sharingPort: true)
        } catch {
            throw ViewfinderError(error)
        }
        do throws(SocketError) {
            searches = try Socket.udp(bindingTo: "0.0.0.0", port: 0)
        } catch {
            notifications.close()
            throw ViewfinderError(error)
        }
        let group = try SocketAddress(numeric: SSDPMessage.ipv4Group, port: SSDPMessage.port)
        let started = try SocketLoop(name: "ssdp-search", sockets: [notifications, searches]) {
            [configuration] loop in
            var search = Search(
                notifications: notifications, searches: searches, interfaces: [], group: group,
                configuration: configuration, report: report)
            search.run(until: loop)
        }
        loop.withLock { $0 = started }
    }

    /// Stops searching and listening, and waits for the search thread to end.
    public func stopSearching() {
        loop.withLock { loop in
            defer { loop = nil }
            return loop
        }?.stop()
    }

    /// The camera an SSDP message and its device description describe.
    static func camera(
        from message: SSDPMessage, description: UPnPDeviceDescription, sender: String
    ) -> DiscoveredCamera? {
        guard let target = message.target, let id = description.udn ?? message.deviceID else { return nil }
        let host = message.location.flatMap { DescriptionFetcher.parts(of: $0)?.host } ?? sender
        let maker = (description.manufacturer ?? "").lowercased()
        let family: CameraFamily =
            if target.contains("schemas-canon-com") || maker.contains("canon") {
                .canon
            } else if target.contains("schemas-sony-com") || maker.contains("sony") {
                .sony
            } else if maker.contains("nikon") {
                .nikon
            } else if maker.contains("fujifilm") {
                .fujifilm
            } else {
                .genericPTPIP
            }
        let model = description.modelName ?? ""
        return DiscoveredCamera(
            id: id, family: family, manufacturer: description.manufacturer ?? "", model: model,
            name: description.nickname ?? description.friendlyName ?? model, serialNumber: description.serialNumber,
            host: host, port: nil, foundBy: .ssdp)
    }

    /// One search: its sockets, what it has read, and the loop.
    private struct Search {
        let notifications: Socket
        let searches: Socket
        var interfaces: [MulticastInterface]
        let group: SocketAddress
        let configuration: Configuration
        let report: @Sendable (CameraSearchEvent) -> Void
        /// Descriptions read, by location; `nil` for one that could not be read, asked again after ten seconds.
        var descriptions: [String: (description: UPnPDeviceDescription?, readAt: ContinuousClock.Instant)] = [:]

        static let maximumDescriptions = 64
        /// How long after a byebye a device's alive and answers are taken as stale: sent before it left, and still
        /// in flight.
        static let quietAfterByebye = Duration.seconds(3)
        /// When each device said byebye, for the quiet time after.
        var byebyes: [String: ContinuousClock.Instant] = [:]

        init(
            notifications: Socket, searches: Socket, interfaces: [MulticastInterface], group: SocketAddress,
            configuration: Configuration, report: @escaping @Sendable (CameraSearchEvent) -> Void
        ) {
            self.notifications = notifications
            self.searches = searches
            self.interfaces = interfaces
            self.group = group
            self.configuration = configuration
            self.report = report
        }

        mutating func run(until loop: SocketLoop) {
            var schedule: [Duration] = [.seconds(1), .seconds(2)]
            var nextSearch = ContinuousClock.now
            var nextInterfaceCheck = ContinuousClock.now
            var buffer = [UInt8](repeating: 0, count: SSDPMessage.maximumLength)
            while !loop.isStopping {
                if ContinuousClock.now >= nextInterfaceCheck {
                    // A new network is searched at once.
                    if joinNewInterfaces() { nextSearch = .now }
                    nextInterfaceCheck = .now + MulticastDNSSearcher.interfaceCheckInterval
                }
                if ContinuousClock.now >= nextSearch {
                    search()
                    nextSearch = .now + (schedule.isEmpty ? configuration.searchInterval : schedule.removeFirst())
                }
                let deadline = min(nextSearch, .now + .milliseconds(100))
                let ready =
                    (try? Poll.wait(
                        [
                            Poll.Request(notifications.descriptor, for: Poll.readable),
                            Poll.Request(searches.descriptor, for: Poll.readable),
                        ], until: deadline)) ?? []
                for (socket, events) in zip([notifications, searches], ready) where events != 0 {
                    let received = buffer.withUnsafeMutableBytes { raw in
                        try? socket.receiveDatagram(into: raw, until: .now, while: "listening for SSDP")
                    }
                    guard let datagram = received ?? nil, !datagram.isTruncated,
                        let message = try? SSDPMessage(decoding: Array(buffer[..<datagram.count]))
                    else { continue }
                    take(message, from: datagram.sender.host)
                }
            }
        }

        /// Joins the group on the interfaces that came up since it last looked; returns whether there was any.
        private mutating func joinNewInterfaces() -> Bool {
            let before = interfaces.count
            for interface in MulticastInterface.all() where !interfaces.contains(interface) {
                if (try? notifications.joinMulticastGroup(group, interface: interface.address)) != nil {
                    interfaces.append(interface)
                }
            }
            return interfaces.count > before
        }

        /// Sends an M-SEARCH for every camera target on every interface.
        private func search() {
            for interface in interfaces {
                try? searches.setMulticastSending(from: interface.address, timeToLive: 2)
                for target in SSDPSearcher.cameraTargets {
                    try? searches.send(
                        SSDPMessage.search(for: target).encoded(), to: group, timeout: .milliseconds(100),
                        while: "searching with SSDP")
                }
            }
        }

        private mutating func take(_ message: SSDPMessage, from sender: String) {
            guard message.kind != .search, let target = message.target, SSDPSearcher.cameraTargets.contains(target),
                let deviceID = message.deviceID
            else { return }
            let key = "ssdp:\(deviceID)"
            let now = ContinuousClock.now
            byebyes = byebyes.filter { $0.value > now - Self.quietAfterByebye }
            if message.isByeBye {
                if byebyes.count < Self.maximumDescriptions { byebyes[deviceID] = now }
                report(.gone(key: key))
                return
            }
            guard byebyes[deviceID] == nil else { return }
            guard let location = message.location, let description = describe(location) else { return }
            guard let camera = SSDPSearcher.camera(from: message, description: description, sender: sender) else {
                return
            }
            let lifetime = Duration.seconds(message.maximumAge ?? 1800)
            report(.seen(key: key, camera: camera, lifetime: min(lifetime, configuration.lifetime)))
        }

        /// The description at `location`, read once and remembered.
        private mutating func describe(_ location: String) -> UPnPDeviceDescription? {
            if let known = descriptions[location], known.description != nil || known.readAt > .now - .seconds(10) {
                return known.description
            }
            if descriptions.count >= Self.maximumDescriptions {
                descriptions = descriptions.filter { $0.value.description != nil }
                guard descriptions.count < Self.maximumDescriptions else { return nil }
            }
            let description = try? DescriptionFetcher.fetch(location, timeout: configuration.fetchTimeout)
            descriptions[location] = (description, .now)
            return description
        }
    }
}
