import Dispatch
import Testing
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderCore

/// The routing table and manual discovery's resolution of descriptors, with a connector held in memory.
@Suite struct CameraDiscoveryTests {
    /// A routing table as the kernel prints it: a default route on eth0 and one on wlan0 (metric 600), a camera
    /// network on wlan1 without a default route, and a link without a gateway.
    static let table = """
        Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
        eth0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0
        wlan0\t00000000\t0100000A\t0003\t0\t0\t600\t00000000\t0\t0\t0
        wlan0\t0000000A\t00000000\t0001\t0\t0\t600\t00FFFFFF\t0\t0\t0
        wlan1\t0001A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
        wlan1\t0010A8C0\t0101A8C0\t0003\t0\t0\t0\t00FFFFFF\t0\t0\t0
        usb0\t0002A8C0\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0
        """

    @Test func theRoutingTableGivesTheDefaultGatewayAndEachInterfacesGateway() throws {
        let table = try RoutingTable(parsing: Self.table)
        #expect(table.routes.count == 6)
        #expect(table.routes[0].gateway == "192.168.1.1")
        #expect(table.routes[2].mask == "255.255.255.0")
        #expect(table.defaultGateway == "192.168.1.1")
        #expect(try table.gateway(ofInterface: "wlan0") == "10.0.0.1")
        #expect(try table.gateway(ofInterface: "wlan1") == "192.168.1.1")
        let noGateway = #expect(throws: ViewfinderError.self) { try table.gateway(ofInterface: "usb0") }
        #expect(noGateway?.code == .notFound)
        let unknown = #expect(throws: ViewfinderError.self) { try table.gateway(ofInterface: "en0") }
        #expect(unknown?.code == .notFound)
        #expect(unknown?.message.contains("eth0, usb0, wlan0, wlan1") == true)
    }

    @Test func aTableWithoutDefaultRouteHasNoDefaultGatewayAndGarbageIsRefused() throws {
        let lines = Self.table.split(separator: "\n")
        let table = try RoutingTable(parsing: ([lines[0]] + lines[3...]).joined(separator: "\n"))
        #expect(table.defaultGateway == nil)
        let malformed = #expect(throws: ViewfinderError.self) {
            try RoutingTable(parsing: "Iface\tDestination\neth0\tnot-hex\t0\t0\n")
        }
        #expect(malformed?.code == .malformedData)
        #expect(try RoutingTable(parsing: "").routes.isEmpty)
    }

    @Test func theKernelsTableParses() throws {
        let table = try RoutingTable.current()
        #expect(table.routes.allSatisfy { !$0.interface.isEmpty && $0.destination.split(separator: ".").count == 4 })
        let missing = #expect(throws: ViewfinderError.self) { try RoutingTable.current(path: "/nonexistent/route") }
        #expect(missing?.code == .notFound)
    }

    /// A connector for one kind of address that records where it was asked to look and returns a fake camera.
    final class RecordingConnector: CameraConnector {
        let addressKind: CameraAddress.Kind
        let asked = Recorder<String>()

        init(_ addressKind: CameraAddress.Kind = .network) {
            self.addressKind = addressKind
        }

        func camera(of family: CameraFamily, at address: CameraAddress) async throws -> any Camera {
            asked.append(
                "\(family) \(address.host ?? "\(address)") \(address.port.map(String.init) ?? "-")"
                    + (address.path.map { " " + $0 } ?? ""))
            guard address.host != "10.9.9.9" else { throw ViewfinderError(.connectionFailed, "connection refused") }
            return FakeCamera()
        }
    }

    @Test func descriptorsResolveToTheGatewayOrAddressTheyName() async throws {
        let connector = RecordingConnector()
        let discovery = CameraDiscovery(connectors: [connector]) { try RoutingTable(parsing: Self.table) }
        let manual = discovery.manualDiscovery
        _ = try await manual.discover(.cameraAtSuggestedGateway(.canon))
        _ = try await manual.discover(.cameraType(.nikon, atGatewayOfInterface: "wlan0"))
        _ = try await manual.discover(.cameraType(.sony, atAddress: "172.16.0.9", port: 15741))
        #expect(connector.asked.all == ["Canon 192.168.1.1 -", "Nikon 10.0.0.1 -", "Sony 172.16.0.9 15741"])

        let noGateway = await #expect(throws: ViewfinderError.self) {
            _ = try await manual.discover(.cameraType(.canon, atGatewayOfInterface: "usb0"))
        }
        #expect(noGateway?.code == .notFound)
        let refused = await #expect(throws: ViewfinderError.self) {
            _ = try await manual.discover(.cameraType(.canon, atAddress: "10.9.9.9"))
        }
        #expect(refused?.code == .connectionFailed)
        #expect(refused?.message.hasPrefix("cannot find a Canon camera at 10.9.9.9: ") == true)
    }

    @Test func eachAddressGoesToTheConnectorsOfItsKind() async throws {
        let network = RecordingConnector(.network)
        let usb = RecordingConnector(.usb)
        let discovery = CameraDiscovery(connectors: [network, usb]) { try RoutingTable(parsing: Self.table) }
        _ = try await discovery.manualDiscovery.discover(.cameraAttachedByUSB("1:4"))
        _ = try await discovery.manualDiscovery.discover(.cameraAttachedByUSB())
        _ = try await discovery.manualDiscovery.discover(.cameraType(.nikon, atAddress: "10.0.0.7"))
        #expect(usb.asked.all == ["PTP/IP usb:1:4 -", "PTP/IP usb: -"])
        #expect(network.asked.all == ["Nikon 10.0.0.7 -"])

        let onlyNetwork = CameraDiscovery(connectors: [network]) { try RoutingTable(parsing: "") }
        let noUSB = await #expect(throws: ViewfinderError.self) {
            _ = try await onlyNetwork.manualDiscovery.discover(.cameraAttachedByUSB("serial-9"))
        }
        #expect(noUSB?.code == .notAvailable)
        #expect(
            noUSB?.message
                == "cannot find the USB camera serial-9: no transport Viewfinder has reaches cameras over USB")
        #expect(network.asked.all == ["Nikon 10.0.0.7 -"])
    }

    /// A discovered camera reaches its family's connector at its whole address: a Camera Remote API body found over
    /// SSDP at the path of the description it announced too.
    @Test func aDiscoveredCameraReachesItsConnectorAtThePathItAnnounced() async throws {
        let connector = RecordingConnector()
        let discovery = CameraDiscovery(connectors: [connector]) { try RoutingTable(parsing: Self.table) }
        let sony = DiscoveredCamera(
            id: "uuid:1", family: .sonyRemoteAPI, manufacturer: "Sony Corporation", model: "ILCE-6000",
            name: "ILCE-6000", address: .network(host: "10.0.0.1", port: 61000, path: "/camera/description.xml"),
            foundBy: .ssdp)
        _ = try await discovery.camera(for: sony)
        #expect(connector.asked.all == ["Sony (Camera Remote API) 10.0.0.1 61000 /camera/description.xml"])
        #expect(sony.address.description == "10.0.0.1:61000")
    }

    @Test func addressesReadAndPrintAsTheToolTakesThem() {
        #expect(USBCameraSelector("") == .only)
        #expect(USBCameraSelector("1:4") == .busAddress(bus: 1, address: 4))
        #expect(USBCameraSelector("3001234") == .serialNumber("3001234"))
        #expect(USBCameraSelector("1:x") == .serialNumber("1:x"))
        #expect(CameraAddress.usb(.busAddress(bus: 2, address: 11)).description == "usb:2:11")
        #expect(CameraAddress.usb(.only).description == "usb:")
        #expect(CameraAddress.network(host: "192.168.1.1", port: nil).description == "192.168.1.1")
        #expect(CameraAddress.network(host: "fe80::1", port: 15740).description == "[fe80::1]:15740")
        #expect(CameraFamily(rawValue: "canon") == .canon)
        #expect(CameraFamily(rawValue: "leica") == nil)
        let leica = CameraFamily("leica", name: "Leica")
        #expect(leica.description == "Leica" && leica != .canon && leica == CameraFamily("leica", name: "LEICA"))
    }

    @Test func theCompletionHandlerRunsOnTheQueueGiven() async throws {
        let discovery = CameraDiscovery(connectors: [RecordingConnector()]) { try RoutingTable(parsing: "") }
        let queue = MarkedQueue()
        let outcome = Recorder<String>()
        discovery.manualDiscovery.discover(.cameraAtSuggestedGateway(.nikon), completionQueue: queue.queue) { result in
            switch result {
            case .success: outcome.append("camera, on queue: \(queue.isCurrent)")
            case .failure(let error):
                outcome.append("\((error as? ViewfinderError)?.code.description ?? "?"), on queue: \(queue.isCurrent)")
            }
        }
        try await waitUntil("the completion") { outcome.count == 1 }
        #expect(outcome.all == ["notFound, on queue: true"])
    }
}
