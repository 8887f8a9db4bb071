import ViewfinderCore
import ViewfinderDiscovery

extension CameraSimulator {
    /// How a simulated camera announces itself, as the camera it plays would.
    public struct Announcements: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: Int

        /// Creates a set from its bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// A `_ptp._tcp` service over multicast DNS, as Nikon cameras announce.
        public static let multicastDNS = Announcements(rawValue: 1)
        /// A UPnP device over SSDP with its description, as Canon and Sony cameras announce (Canon's EOS service for
        /// the Canon identity, Sony's ScalarWebAPI service with a PTP/IP body's description for the Sony identities,
        /// the MTP null service otherwise).
        public static let ssdp = Announcements(rawValue: 2)
    }

    /// Starts the configured announcements of a camera serving PTP/IP on `port`.
    func announce(port: UInt16) throws(ViewfinderError) {
        let wanted = configuration.announcements
        guard !wanted.isEmpty else { return }
        let address = try announcementAddress()
        let info = responder.deviceInfo
        let identity = configuration.identity
        var stops: [@Sendable () -> Void] = []
        do throws(ViewfinderError) {
            if wanted.contains(.multicastDNS) {
                let vendors: [CameraSimulator.Identity: String] = [
                    .nikon: "04b0", .canon: "04a9", .sony: "054c", .sonyStepping: "054c",
                ]
                var text = ["guid": info.serialNumber.lowercased()]
                text["vid"] = vendors[identity]
                let announcer = try MulticastDNSAnnouncer(
                    .init(
                        name: "\(info.model) (\(info.serialNumber))", hostName: "vf-\(info.serialNumber.lowercased())",
                        address: address, port: port, text: text))
                stops.append(announcer.stop)
                configuration.log?("announcing \(info.model) over multicast DNS from \(address)")
            }
            if wanted.contains(.ssdp) {
                let type =
                    switch identity {
                    case .canon: "urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1"
                    case .sony, .sonyStepping: "urn:schemas-sony-com:service:ScalarWebAPI:1"
                    default: "urn:microsoft-com:service:MtpNullService:1"
                    }
                let announcer = try SSDPAnnouncer(
                    .init(
                        udn: Self.udn(serialNumber: info.serialNumber),
                        types: [type], manufacturer: identity.manufacturer, modelName: info.model,
                        friendlyName: info.model, serialNumber: info.serialNumber, address: address,
                        vendorElements: identity.isSony ? Self.sonyPTPIPDeviceInfo(address: address) : ""))
                stops.append(announcer.stop)
                configuration.log?(
                    "announcing \(info.model) over SSDP from \(address), described at \(announcer.location)")
            }
        } catch {
            for stop in stops { stop() }
            throw error
        }
        announcing.withLock { $0 += stops }
    }

    /// What a Sony in PC Remote mode says of itself in its description: Sony's device information with the
    /// ImagingDevice's live view address and no Camera Remote API version, which marks it as a PTP/IP camera.
    static func sonyPTPIPDeviceInfo(address: String) -> String {
        "<av:X_ScalarWebAPI_DeviceInfo xmlns:av=\"urn:schemas-sony-com:av\"><av:X_ScalarWebAPI_ImagingDevice>"
            + "<av:X_ScalarWebAPI_LiveView_URL>http://\(address):60152/liveviewstream</av:X_ScalarWebAPI_LiveView_URL>"
            + "</av:X_ScalarWebAPI_ImagingDevice></av:X_ScalarWebAPI_DeviceInfo>"
    }

    /// A UDN that follows from the serial number, so the same camera has the same one in every run.
    static func udn(serialNumber: String) -> String {
        let hash = serialNumber.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        let digits = String(hash & 0xFFFF_FFFF_FFFF, radix: 16)
        return "uuid:00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }

    /// Ends the announcements with their goodbyes.
    func stopAnnouncing() {
        let stops = announcing.withLock { stops in
            defer { stops = [] }
            return stops
        }
        for stop in stops { stop() }
    }

    /// The address announcements go out from: the bind address, or the first multicast interface's for `0.0.0.0`.
    private func announcementAddress() throws(ViewfinderError) -> String {
        switch configuration.bindAddress {
        case "0.0.0.0":
            guard let interface = MulticastInterface.all().first else {
                throw ViewfinderError(.notAvailable, "no network interface takes part in multicast to announce on")
            }
            return interface.address
        case let address where address.hasPrefix("127."):
            throw ViewfinderError(
                .invalidArgument,
                "cameras announce themselves on a network, not on loopback: bind to an interface's address or 0.0.0.0")
        case let address:
            return address
        }
    }
}
