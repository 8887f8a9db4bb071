import ViewfinderCore
import ViewfinderHTTPMessage
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
///
/// Only a camera's own description is read: an announcement whose LOCATION names another host than the one that
/// sent it is ignored, so a stranger on the network cannot have this computer fetch from wherever it points, and a
/// byebye counts only from the host the camera was found at. Descriptions are read on threads of their own, a few
/// at a time, so a host that is slow to answer holds up neither the other announcements nor the searches.
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

    /// The service and device types cameras announce (Canon's EOS and PowerShot services, Sony's Remote API, the
    /// MTP null service of cameras in "send to computer" mode, and the media server a Lumix is, which counts only
    /// with its description at ``lumixDescriptionPath``).
    public static let cameraTargets = [
        "urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1",
        "urn:schemas-canon-com:service:ICPO-SmartPhoneEOSSystemService:1",
        "urn:schemas-canon-com:service:MobileConnectedCameraService:1",
        "urn:schemas-sony-com:service:ScalarWebAPI:1",
        "urn:microsoft-com:service:MtpNullService:1",
        "urn:microsoft-com:device:mtp:1",
        mediaServer,
    ]

    /// The UPnP media server type, which a Lumix announces as well as every other media server on a network.
    public static let mediaServer = "urn:schemas-upnp-org:device:MediaServer:1"
    /// Where a Lumix serves its description, as its LOCATION says: what tells it from other media servers.
    public static let lumixDescriptionPath = "/Lumix/Server0/ddd"

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
        let fetches: DescriptionFetches
        do {
            fetches = try DescriptionFetches(timeout: configuration.fetchTimeout)
        } catch {
            notifications.close()
            searches.close()
            throw error
        }
        let started = try SocketLoop(name: "ssdp-search", sockets: [notifications, searches]) {
            [configuration] loop in
            var search = Search(
                notifications: notifications, searches: searches, group: group, fetches: fetches,
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

    /// The camera an SSDP message from `sender` and its device description describe, at the sender's address.
    ///
    /// A Sony that speaks the Camera Remote API is reached through its description, so its address keeps the port
    /// and path of the description's LOCATION; a Lumix's description names its content directory, on a port other
    /// than its commands', so its address keeps the whole LOCATION as its path; the other families serve on a port
    /// of their own, which the LOCATION does not give.
    static func camera(
        from message: SSDPMessage, description: UPnPDeviceDescription, sender: String
    ) -> DiscoveredCamera? {
        guard let target = message.target, let id = description.udn ?? message.deviceID else { return nil }
        let maker = (description.manufacturer ?? "").lowercased()
        let family: CameraFamily =
            if target.contains("schemas-canon-com") || maker.contains("canon") {
                .canon
            } else if target.contains("schemas-sony-com") || maker.contains("sony") {
                // Both kinds of Sony answer for Sony's ScalarWebAPI service; only those that speak its Camera Remote
                // API over HTTP give its version.
                description.remoteAPIVersion == nil ? .sony : .sonyRemoteAPI
            } else if maker.contains("nikon") {
                .nikon
            } else if maker.contains("fujifilm") {
                .fujifilm
            } else if maker.contains("panasonic") || target == mediaServer {
                .panasonic
            } else {
                .genericPTPIP
            }
        let model = description.modelName ?? ""
        let location = message.location.flatMap(HTTPURL.init)
        let address: CameraAddress =
            switch family {
            case .sonyRemoteAPI: .network(host: sender, port: location?.port, path: location?.target)
            case .panasonic: .network(host: sender, port: nil, path: location != nil ? message.location : nil)
            default: .network(host: sender, port: nil)
            }
        return DiscoveredCamera(
            id: id, family: family, manufacturer: description.manufacturer ?? "", model: model,
            name: description.nickname ?? description.friendlyName ?? model, serialNumber: description.serialNumber,
            address: address, foundBy: .ssdp)
    }

    /// One search: its sockets, what it has read, and the loop.
    struct Search {
        let notifications: Socket
        let searches: Socket
        var interfaces: [MulticastInterface]
        let group: SocketAddress
        let fetches: DescriptionFetches
        let configuration: Configuration
        let report: @Sendable (CameraSearchEvent) -> Void
        /// Descriptions read, by location; `nil` for one that could not be read, asked again after ten seconds.
        var descriptions: [String: (description: UPnPDeviceDescription?, readAt: ContinuousClock.Instant)] = [:]
        /// The newest announcement of each location whose description is being read, and who sent it.
        var waiting: [String: (message: SSDPMessage, sender: String)] = [:]
        /// The host each camera was found at, by its UDN, whose byebye alone counts.
        var hosts: [String: String] = [:]

        static let maximumDescriptions = 64
        /// How long after a byebye a device's alive and answers are taken as stale: sent before it left, and still
        /// in flight.
        static let quietAfterByebye = Duration.seconds(3)
        /// When each device said byebye, for the quiet time after.
        var byebyes: [String: ContinuousClock.Instant] = [:]

        init(
            notifications: Socket, searches: Socket, group: SocketAddress, fetches: DescriptionFetches,
            configuration: Configuration, report: @escaping @Sendable (CameraSearchEvent) -> Void
        ) {
            self.notifications = notifications
            self.searches = searches
            interfaces = []
            self.group = group
            self.fetches = fetches
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
                            Poll.Request(fetches.wakeup.descriptor, for: Poll.readable),
                        ], until: deadline)) ?? []
                if ready.count == 3, ready[2] != 0 {
                    for fetch in fetches.takeFinished() { described(fetch.location, fetch.description) }
                }
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
            fetches.waitForRunning()
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

        /// Takes a message from `sender`: reports a byebye, or reads the description of a camera it has not read, or
        /// reports the camera whose description it has.
        mutating func take(_ message: SSDPMessage, from sender: String) {
            guard message.kind != .search, let target = message.target, SSDPSearcher.cameraTargets.contains(target),
                let deviceID = message.deviceID
            else { return }
            // Of the media servers, only a Lumix is a camera; the others' descriptions are not read.
            if target == SSDPSearcher.mediaServer,
                message.location.flatMap(HTTPURL.init)?.target != SSDPSearcher.lumixDescriptionPath
            {
                return
            }
            let key = "ssdp:\(deviceID)"
            let now = ContinuousClock.now
            byebyes = byebyes.filter { $0.value > now - Self.quietAfterByebye }
            if message.isByeBye {
                guard hosts[deviceID].map({ $0 == sender }) ?? true else { return }
                if byebyes.count < Self.maximumDescriptions { byebyes[deviceID] = now }
                hosts[deviceID] = nil
                report(.gone(key: key))
                return
            }
            guard byebyes[deviceID] == nil else { return }
            // A description anywhere but on the sender would have this computer fetch what a stranger points it at.
            guard let location = message.location, HTTPURL(location)?.host == sender else {
                return
            }
            if let known = descriptions[location], known.description != nil || known.readAt > now - .seconds(10) {
                if let description = known.description { announce(message, description: description, sender: sender) }
                return
            }
            guard waiting[location] != nil || waiting.count < Self.maximumDescriptions, fetches.start(location) else {
                return
            }
            waiting[location] = (message, sender)
        }

        /// Takes a description that was read (or `nil` for one that could not be), and reports the camera that
        /// waited for it.
        mutating func described(_ location: String, _ description: UPnPDeviceDescription?) {
            if descriptions.count >= Self.maximumDescriptions {
                descriptions = descriptions.filter { $0.value.description != nil }
            }
            if descriptions.count < Self.maximumDescriptions { descriptions[location] = (description, .now) }
            guard let (message, sender) = waiting.removeValue(forKey: location), let description,
                let deviceID = message.deviceID, byebyes[deviceID] == nil
            else { return }
            announce(message, description: description, sender: sender)
        }

        private mutating func announce(_ message: SSDPMessage, description: UPnPDeviceDescription, sender: String) {
            guard let camera = SSDPSearcher.camera(from: message, description: description, sender: sender),
                let deviceID = message.deviceID
            else { return }
            if hosts[deviceID] != nil || hosts.count < Self.maximumDescriptions { hosts[deviceID] = sender }
            let lifetime = Duration.seconds(message.maximumAge ?? 1800)
            report(.seen(key: "ssdp:\(deviceID)", camera: camera, lifetime: min(lifetime, configuration.lifetime)))
        }
    }
}
