import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderDiscovery

/// Finding cameras that are their own access point by the WiFi network joined: the generic netlink messages that
/// ask the kernel, the names cameras give their networks, and the searcher that reports them.
@Suite struct WirelessNetworkTests {
    /// A datagram as the kernel answers a dump of interfaces: a station joined to a network, a station that is not,
    /// an access point with its own network's name, and the end.
    static func dumpAnswer(sequence: UInt32) -> [UInt8] {
        func interface(_ index: UInt8, _ name: String, type: UInt8, ssid: String?) -> GenericNetlinkMessage {
            var attributes: [(type: UInt16, payload: [UInt8])] = [
                (3, [index, 0, 0, 0]), (4, Array(name.utf8) + [0]), (5, [type, 0, 0, 0]),
            ]
            if let ssid { attributes.append((52, Array(ssid.utf8))) }
            return GenericNetlinkMessage(
                type: 0x1C, flags: 0x2, sequence: sequence, command: 7, attributes: attributes)
        }
        var done: [UInt8] = [20, 0, 0, 0, 3, 0, 2, 0]
        done += withUnsafeBytes(of: sequence.littleEndian, Array.init)
        done += [UInt8](repeating: 0, count: 8)
        return interface(4, "wlan0", type: 2, ssid: "FUJIFILM-X-T4-1A2B").encoded
            + interface(5, "wlan1", type: 2, ssid: nil).encoded
            + interface(6, "wlan2", type: 3, ssid: "FUJIFILM-X-H2-0001").encoded + done
    }

    @Test func messagesEncodeWithPaddedAttributesAndDecodeBack() throws {
        let request = GenericNetlinkMessage(
            type: GenericNetlinkMessage.controlFamily, flags: GenericNetlinkMessage.requestFlag, sequence: 7,
            command: GenericNetlinkMessage.getFamilyCommand,
            attributes: [(GenericNetlinkMessage.familyNameAttribute, Array("nl80211".utf8) + [0])])
        let bytes = request.encoded
        // 16 header + 4 generic header + 4 attribute header + 8 name, already a multiple of four.
        #expect(bytes.count == 32 && bytes[0] == 32 && bytes[4] == 0x10 && bytes[16] == 3 && bytes[17] == 1)
        #expect(bytes[20..<24] == [12, 0, 2, 0])
        #expect(try GenericNetlinkMessage.decode(bytes) == [.message(request)])
        // An odd-length payload is padded, and the next attribute starts after the padding.
        let odd = GenericNetlinkMessage(
            type: 0x1C, flags: 0, sequence: 1, command: 5, attributes: [(52, [1, 2, 3]), (4, [9])])
        #expect(odd.encoded.count == 16 + 4 + 8 + 8)
        #expect(try GenericNetlinkMessage.decode(odd.encoded) == [.message(odd)])
    }

    @Test func aDumpAnswerHoldsEachMessageThenItsEnd() throws {
        let parts = try GenericNetlinkMessage.decode(Self.dumpAnswer(sequence: 9))
        #expect(parts.count == 4 && parts.last == .done(sequence: 9))
        let messages = parts.compactMap { part -> GenericNetlinkMessage? in
            guard case .message(let message) = part else { return nil }
            return message
        }
        #expect(messages.first?.attribute(JoinedWirelessNetwork.ssidAttribute) == Array("FUJIFILM-X-T4-1A2B".utf8))
        // The stations, with the SSID where the description gives it (Linux before 4.15); not the access point.
        #expect(
            JoinedWirelessNetwork.stations(in: messages) == [
                .init(interface: "wlan0", index: 4, ssid: Array("FUJIFILM-X-T4-1A2B".utf8)),
                .init(interface: "wlan1", index: 5, ssid: nil),
            ])
        // An error answer carries the negative errno.
        let error: [UInt8] =
            [36, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0] + [0xFE, 0xFF, 0xFF, 0xFF]
            + [UInt8](
                repeating: 0, count: 16)
        #expect(try GenericNetlinkMessage.decode(error) == [.error(code: -2, sequence: 4)])
    }

    /// A scan result as the kernel dumps it: the access point's BSSID, its information elements and its status.
    static func scanResult(ssid: [UInt8], status: UInt32?) -> GenericNetlinkMessage {
        // An SSID element (ID 0), then supported rates (ID 1).
        let elements: [UInt8] = [0, UInt8(ssid.count)] + ssid + [1, 4, 0x82, 0x84, 0x8B, 0x96]
        var bss: [(type: UInt16, payload: [UInt8])] = [(1, [2, 0, 0, 0, 0, 0]), (6, elements)]
        if let status { bss.append((9, withUnsafeBytes(of: status.littleEndian, Array.init))) }
        return GenericNetlinkMessage(
            type: 0x20, flags: 0x2, sequence: 3, command: 34, attributes: [(47, GenericNetlinkMessage.encode(bss))])
    }

    @Test func theNetworkJoinedIsTheAssociatedAccessPointsSSID() throws {
        let joined = Array("FUJIFILM-X-T4-VF01".utf8)
        // Another network in range, seen by a scan but not joined, comes first.
        let scan = [Self.scanResult(ssid: Array("Cafe".utf8), status: nil), Self.scanResult(ssid: joined, status: 1)]
        #expect(try JoinedWirelessNetwork.associatedSSID(in: scan) == joined)
        #expect(try JoinedWirelessNetwork.associatedSSID(in: [Self.scanResult(ssid: joined, status: 0)]) == nil)
        #expect(try JoinedWirelessNetwork.associatedSSID(in: []) == nil)
        // Elements cut short end the search; a nested length past its attribute is malformed.
        var cut = Self.scanResult(ssid: joined, status: 1)
        cut.attributes[0].payload[16 + 1] = 200
        #expect(try JoinedWirelessNetwork.associatedSSID(in: [cut]) == nil)
        var bad = Self.scanResult(ssid: joined, status: 1)
        bad.attributes[0].payload[0] = 200
        let error = #expect(throws: ViewfinderError.self) { try JoinedWirelessNetwork.associatedSSID(in: [bad]) }
        #expect(error?.code == .malformedData)
    }

    @Test func lengthsThatDoNotFitTheDatagramAreMalformed() {
        var answer = Self.dumpAnswer(sequence: 1)
        // A message longer than what was received.
        answer[0] = 0xFF
        #expect(throws: GenericNetlinkMessage.MalformedError(offset: 0)) { try GenericNetlinkMessage.decode(answer) }
        // A message shorter than its own header.
        answer[0] = 8
        #expect(throws: GenericNetlinkMessage.MalformedError(offset: 0)) { try GenericNetlinkMessage.decode(answer) }
        // An attribute longer than its message.
        answer = Self.dumpAnswer(sequence: 1)
        answer[20] = 200
        #expect(throws: GenericNetlinkMessage.MalformedError(offset: 20)) { try GenericNetlinkMessage.decode(answer) }
        // An error answer without its code.
        #expect(throws: GenericNetlinkMessage.MalformedError(offset: 0)) {
            try GenericNetlinkMessage.decode([16, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0])
        }
    }

    @Test func theKernelResolvesFamiliesByNameOverARealNetlinkSocket() throws {
        var link = try GenericNetlinkLink()
        // The control family always exists, at its fixed ID; a made-up one does not.
        #expect(try link.familyID(named: "nlctrl") == GenericNetlinkMessage.controlFamily)
        #expect(try link.familyID(named: "viewfinder-none") == nil)
        // Asking for the joined networks works whether or not the machine has WiFi: none joined here, or some.
        _ = try JoinedWirelessNetwork.all()
    }

    @Test func fujifilmNetworksNameTheirModelAndOtherNetworksNoCamera() throws {
        let camera = try #require(
            CameraNetworkName.camera(
                on: JoinedWirelessNetwork(interface: "wlan0", ssid: Array("FUJIFILM-X-T4-1A2B".utf8)),
                gateway: "192.168.0.1"))
        #expect(camera.family == .fujifilm && camera.model == "X-T4" && camera.manufacturer == "FUJIFILM")
        #expect(camera.name == "FUJIFILM-X-T4-1A2B" && camera.foundBy == .wirelessNetwork)
        #expect(camera.address == .network(host: "192.168.0.1", port: nil) && camera.foundBy.description == "wifi")
        let noGateway = CameraNetworkName.camera(
            on: JoinedWirelessNetwork(interface: "wlan0", ssid: Array("FUJIFILM-X100V-0042".utf8)), gateway: nil)
        #expect(noGateway?.model == "X100V" && noGateway?.address.host == CameraNetworkName.fujifilmAddress)
        for other in ["HomeNetwork", "FUJIFILM-", "fujifilm-X-T4-1A2B", ""] {
            #expect(
                CameraNetworkName.camera(
                    on: JoinedWirelessNetwork(interface: "wlan0", ssid: Array(other.utf8)), gateway: nil)
                    == nil)
        }
    }

    @Test func theSearcherReportsTheCameraOfEachNetworkJoinedUntilItIsLeft() async throws {
        let joined = Locked<Result<[JoinedWirelessNetwork], ViewfinderError>>(.success([]))
        let looks = Locked(0)
        let searcher = WirelessNetworkSearcher(
            interval: .milliseconds(20),
            networks: { () throws(ViewfinderError) in
                looks.withLock { $0 += 1 }
                return try joined.withLock { $0 }.get()
            },
            routingTable: {
                try RoutingTable(
                    parsing: """
                        Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
                        wlan1\t00000000\t0100A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
                        """)
            })
        let discovery = CameraDiscovery(connectors: []) { try RoutingTable(parsing: "") }
        discovery.register(searcher)
        discovery.beginSearching()
        defer { discovery.stopSearching() }
        #expect(discovery.searchErrors.isEmpty && discovery.availableCameras.isEmpty)
        joined.withLock {
            $0 = .success([
                JoinedWirelessNetwork(interface: "wlan1", ssid: Array("FUJIFILM-X-H2-77".utf8)),
                JoinedWirelessNetwork(interface: "wlan2", ssid: Array("Cafe".utf8)),
            ])
        }
        try await waitUntil("the camera of the network joined") { discovery.availableCameras.count == 1 }
        let camera = try #require(discovery.availableCameras.first)
        #expect(camera.model == "X-H2" && camera.address.host == "192.168.0.1" && camera.foundBy == .wirelessNetwork)
        // A look that fails keeps the camera found and says why.
        joined.withLock { $0 = .failure(ViewfinderError(.io, "no netlink")) }
        try await waitUntil("the failed look") { searcher.lookError != nil }
        #expect(discovery.availableCameras == [camera])
        // Leaving the network loses the camera.
        joined.withLock { $0 = .success([]) }
        try await waitUntil("the network left") { discovery.availableCameras.isEmpty }
        #expect(searcher.lookError == nil && looks.withLock { $0 } >= 4)
    }
}
