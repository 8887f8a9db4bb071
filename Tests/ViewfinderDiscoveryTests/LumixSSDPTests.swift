import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderDiscovery

/// A Lumix announces itself as a UPnP media server whose description is at /Lumix/Server0/ddd.
@Suite struct LumixSSDPTests {
    static func notify(location: String) throws -> SSDPMessage {
        try SSDPMessage(
            decoding: Array(
                ("NOTIFY * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nNT: urn:schemas-upnp-org:device:MediaServer:1\r\n"
                    + "NTS: ssdp:alive\r\nLOCATION: \(location)\r\n"
                    + "USN: uuid:4D454930-0100-1000-8001-A8C1FE000001::urn:schemas-upnp-org:device:MediaServer:1\r\n"
                    + "CACHE-CONTROL: max-age=1800\r\n\r\n").utf8))
    }

    @Test func aLumixIsAPanasonicCameraAtItsSender() throws {
        let message = try Self.notify(location: "http://192.168.54.1:60606/Lumix/Server0/ddd")
        #expect(SSDPSearcher.cameraTargets.contains(try #require(message.target)))
        let camera = try #require(
            SSDPSearcher.camera(
                from: message,
                description: UPnPDeviceDescription(
                    manufacturer: "Panasonic", modelName: "DC-TZ90", friendlyName: "TZ90",
                    udn: "uuid:4D454930-0100-1000-8001-A8C1FE000001"),
                sender: "192.168.54.1"))
        #expect(camera.family == .panasonic)
        #expect(camera.model == "DC-TZ90")
        // The LOCATION goes with the address: the description there names the content directory.
        #expect(
            camera.address
                == .network(host: "192.168.54.1", port: nil, path: "http://192.168.54.1:60606/Lumix/Server0/ddd"))
    }

    /// A search on sockets of its own on loopback, its descriptions read by `fetches`, reporting to `report`; the
    /// caller closes its sockets.
    static func loopbackSearch(
        fetches: DescriptionFetches, report: @escaping @Sendable (CameraSearchEvent) -> Void = { _ in }
    ) throws -> SSDPSearcher.Search {
        let group = try SocketAddress(numeric: SSDPMessage.ipv4Group, port: SSDPMessage.port)
        let notifications = try Socket.udp(bindingTo: "127.0.0.1")
        let searches: Socket
        do {
            searches = try Socket.udp(bindingTo: "127.0.0.1")
        } catch {
            notifications.close()
            throw error
        }
        return SSDPSearcher.Search(
            notifications: notifications, searches: searches, group: group, fetches: fetches, configuration: .init(),
            report: report)
    }

    @Test func otherMediaServersAreNotAskedForTheirDescriptions() async throws {
        let fetches = try DescriptionFetches(timeout: .milliseconds(100))
        var search = try Self.loopbackSearch(fetches: fetches)
        defer {
            search.notifications.close()
            search.searches.close()
        }
        search.take(try Self.notify(location: "http://127.0.0.1:1/rootDesc.xml"), from: "127.0.0.1")
        #expect(search.waiting.isEmpty)
        search.take(try Self.notify(location: "http://127.0.0.1:1/Lumix/Server0/ddd"), from: "127.0.0.1")
        #expect(search.waiting.count == 1)
        // The fetch of port 1 is refused at once; its thread ends before the test does.
        await offThePool { fetches.waitForRunning() }
    }
}
