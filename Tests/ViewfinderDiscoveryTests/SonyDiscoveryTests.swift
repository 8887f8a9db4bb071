import Testing
import ViewfinderCore
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderDiscovery

/// Sony bodies of both kinds answer for Sony's ScalarWebAPI service over SSDP, and their descriptions tell them apart.
///
/// Those in PC Remote mode speak PTP/IP; those that speak the older Camera Remote API over HTTP give the API's
/// version in their descriptions.
@Suite(.serialized, .timeLimit(.minutes(3))) struct SonyDiscoveryTests {
    static let target = "urn:schemas-sony-com:service:ScalarWebAPI:1"

    /// An HX400V's description, as pysony's test data has it: the API's version and the services it offers over HTTP.
    static let remoteAPIDescription = Array(
        """
        <?xml version="1.0"?>
        <root xmlns="urn:schemas-upnp-org:device-1-0" xmlns:av="urn:schemas-sony-com:av">
          <specVersion><major>1</major><minor>0</minor></specVersion>
          <device>
            <deviceType>urn:schemas-upnp-org:device:Basic:1</deviceType>
            <friendlyName>DSC-HX400V</friendlyName>
            <manufacturer>Sony Corporation</manufacturer>
            <modelName>SonyImagingDevice</modelName>
            <UDN>uuid:000000001000-1010-8000-62F1894EE7BE</UDN>
            <serviceList><service><serviceType>urn:schemas-sony-com:service:ScalarWebAPI:1</serviceType>
              <serviceId>urn:schemas-sony-com:serviceId:ScalarWebAPI</serviceId></service></serviceList>
            <av:X_ScalarWebAPI_DeviceInfo>
              <av:X_ScalarWebAPI_Version>1.0</av:X_ScalarWebAPI_Version>
              <av:X_ScalarWebAPI_ServiceList>
                <av:X_ScalarWebAPI_Service>
                  <av:X_ScalarWebAPI_ServiceType>camera</av:X_ScalarWebAPI_ServiceType>
                  <av:X_ScalarWebAPI_ActionList_URL>http://192.168.122.1:8080/sony</av:X_ScalarWebAPI_ActionList_URL>
                </av:X_ScalarWebAPI_Service>
              </av:X_ScalarWebAPI_ServiceList>
            </av:X_ScalarWebAPI_DeviceInfo>
          </device>
        </root>
        """.utf8)

    /// A body in PC Remote mode: Sony's device information with only its ImagingDevice, no API version.
    static let ptpipDescription = Array(
        """
        <?xml version="1.0"?>
        <root xmlns="urn:schemas-upnp-org:device-1-0"><specVersion><major>1</major><minor>0</minor></specVersion>
          <device><deviceType>urn:schemas-upnp-org:device:Basic:1</deviceType><friendlyName>ILCE-7M4</friendlyName>
            <manufacturer>Sony Corporation</manufacturer><modelName>ILCE-7M4</modelName>
            <UDN>uuid:00000000-0000-0000-0000-0000000a7e04</UDN>
            <av:X_ScalarWebAPI_DeviceInfo xmlns:av="urn:schemas-sony-com:av"><av:X_ScalarWebAPI_ImagingDevice>
              <av:X_ScalarWebAPI_LiveView_URL>http://192.168.122.1:60152/liveviewstream</av:X_ScalarWebAPI_LiveView_URL>
            </av:X_ScalarWebAPI_ImagingDevice></av:X_ScalarWebAPI_DeviceInfo>
          </device>
        </root>
        """.utf8)

    static func answer(usn: String, location: String = "http://192.168.122.1:64321/dd.xml") -> SSDPMessage {
        SSDPMessage(
            kind: .response,
            headers: [
                "ST": target, "USN": usn + "::" + target, "LOCATION": location, "CACHE-CONTROL": "max-age=1800",
            ])
    }

    @Test func aRemoteAPIBodyIsReportedAtThePortAndPathOfItsDescriptionAndAPTPIPBodyAtNone() throws {
        let legacy = try UPnPDeviceDescription(decoding: Self.remoteAPIDescription)
        let answer = Self.answer(
            usn: "uuid:000000001000-1010-8000-62F1894EE7BE", location: "http://192.168.122.1:61000/DmsRmtDesc.xml")
        let found = try #require(SSDPSearcher.camera(from: answer, description: legacy, sender: "192.168.122.1"))
        #expect(found.address == .network(host: "192.168.122.1", port: 61000, path: "/DmsRmtDesc.xml"))

        // A PTP/IP body serves PTP/IP on its own port, not its description's.
        let remote = try UPnPDeviceDescription(decoding: Self.ptpipDescription)
        let camera = try #require(
            SSDPSearcher.camera(
                from: Self.answer(usn: "uuid:00000000-0000-0000-0000-0000000a7e04"), description: remote,
                sender: "192.168.122.1"))
        #expect(camera.address == .network(host: "192.168.122.1", port: nil))
    }

    @Test func theSearchReportsARemoteAPIBodyAtThePortItsAnswerGave() async throws {
        let fetches = try DescriptionFetches(timeout: .milliseconds(100))
        let events = Locked<[CameraSearchEvent]>([])
        var search = try LumixSSDPTests.loopbackSearch(fetches: fetches) { event in
            events.withLock { $0.append(event) }
        }
        defer {
            search.notifications.close()
            search.searches.close()
        }
        let location = "http://127.0.0.1:1/dd.xml"
        search.take(Self.answer(usn: "uuid:000000001000-1010-8000-62F1894EE7BE", location: location), from: "127.0.0.1")
        #expect(search.waiting[location] != nil)
        search.described(location, try UPnPDeviceDescription(decoding: Self.remoteAPIDescription))
        let reported = events.withLock { $0 }
        guard case .seen(_, let camera, _) = try #require(reported.first) else {
            throw TestFailure("the search reported \(reported) rather than the camera")
        }
        #expect(camera.family == .sonyRemoteAPI)
        #expect(camera.address == .network(host: "127.0.0.1", port: 1, path: "/dd.xml"))
        // The fetch of port 1 is refused at once; its thread ends before the test does.
        await offThePool { fetches.waitForRunning() }
    }

    @Test func aBodyThatGivesTheRemoteAPIsVersionIsNotTakenForAPTPIPCamera() throws {
        let legacy = try UPnPDeviceDescription(decoding: Self.remoteAPIDescription)
        #expect(legacy.remoteAPIVersion == "1.0")
        let found = try #require(
            SSDPSearcher.camera(
                from: Self.answer(usn: "uuid:000000001000-1010-8000-62F1894EE7BE"), description: legacy,
                sender: "192.168.122.1"))
        #expect(found.family == .sonyRemoteAPI)

        let remote = try UPnPDeviceDescription(decoding: Self.ptpipDescription)
        #expect(remote.remoteAPIVersion == nil)
        let camera = try #require(
            SSDPSearcher.camera(
                from: Self.answer(usn: "uuid:00000000-0000-0000-0000-0000000a7e04"), description: remote,
                sender: "192.168.122.1"))
        #expect(camera.family == .sony)
        #expect(camera.model == "ILCE-7M4")
    }

    /// A Sony in PC Remote mode, announced as the simulated Sony announces itself, found by the searcher in the other
    /// network namespace as a Sony that speaks PTP/IP.
    @Test func aSonyInPCRemoteModeAnnouncedOverSSDPIsFoundAsAPTPIPCamera() async throws {
        let pair = try await MulticastDNSSearchTests.namespaces()
        do {
            let elements =
                "<av:X_ScalarWebAPI_DeviceInfo xmlns:av=\"urn:schemas-sony-com:av\"><av:X_ScalarWebAPI_ImagingDevice>"
                + "<av:X_ScalarWebAPI_LiveView_URL>http://\(pair.gateway):60152/liveviewstream"
                + "</av:X_ScalarWebAPI_LiveView_URL></av:X_ScalarWebAPI_ImagingDevice></av:X_ScalarWebAPI_DeviceInfo>"
            let announcer = try await NetworkNamespacePair.run(in: pair.camera) {
                try SSDPAnnouncer(
                    .init(
                        udn: "uuid:00000000-0000-0000-0000-0000000a7e04", types: [Self.target],
                        manufacturer: "Sony Corporation", modelName: "ILCE-7M4", friendlyName: "ILCE-7M4",
                        serialNumber: "0000000000000000VF00000000000004", address: pair.gateway,
                        vendorElements: elements))
            }
            let discovery = CameraDiscovery(connectors: [])
            discovery.register(SSDPSearcher(configuration: .init(searchInterval: .seconds(1))))
            try await NetworkNamespacePair.run(in: pair.app) { discovery.beginSearching() }
            try await waitUntil("the camera to be found") { !discovery.availableCameras.isEmpty }
            let camera = try #require(discovery.availableCameras.first)
            #expect(camera.family == .sony)
            #expect(camera.model == "ILCE-7M4")
            #expect(camera.address.host == pair.gateway)
            discovery.stopSearching()
            announcer.stop()
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }
}
