import Testing
import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderLumix

/// Where the driver lists a Lumix's card: at the content directory the camera's device description names, read at
/// port 60606 for a camera reached by its address alone, or where its SSDP announcement said; at the usual place
/// when the description says nothing usable.
@Suite struct LumixContentPlaceTests {
    static let location = HTTPURL(host: "192.168.54.1", port: 60606, target: "/Lumix/Server0/ddd")

    /// A media server's description whose content directory takes its Browse at `control`, after `head`.
    static func description(control: String, head: String = "") -> [UInt8] {
        Array(
            ("<?xml version=\"1.0\"?><root xmlns=\"urn:schemas-upnp-org:device-1-0\">\(head)<device>"
                + "<deviceType>urn:schemas-upnp-org:device:MediaServer:1</deviceType><serviceList><service>"
                + "<serviceType>urn:schemas-upnp-org:service:ConnectionManager:1</serviceType>"
                + "<controlURL>/Server0/CMS_control</controlURL></service><service>"
                + "<serviceType>urn:schemas-upnp-org:service:ContentDirectory:1</serviceType>"
                + "<controlURL>\(control)</controlURL></service></serviceList></device></root>").utf8)
    }

    static func control(_ body: [UInt8]) -> HTTPURL? {
        LumixContentDirectory.controlURL(inDescription: body, at: location)
    }

    @Test func theDescriptionNamesTheContentDirectory() {
        #expect(
            Self.control(Self.description(control: "/Server0/CDS_control"))
                == HTTPURL(host: "192.168.54.1", port: 60606, target: "/Server0/CDS_control"))
        #expect(
            Self.control(Self.description(control: "http://192.168.54.1:50002/cds"))
                == HTTPURL(host: "192.168.54.1", port: 50002, target: "/cds"))
        #expect(
            Self.control(
                Self.description(control: "/cds", head: "<URLBase>http://192.168.54.1:50003/base/</URLBase>"))
                == HTTPURL(host: "192.168.54.1", port: 50003, target: "/cds"))
        #expect(
            Self.control(Self.description(control: "CDS_control"))
                == HTTPURL(host: "192.168.54.1", port: 60606, target: "/Lumix/Server0/CDS_control"))
    }

    @Test func aDescriptionOutOfFormOrNamingNoContentDirectoryOnTheCameraLeavesTheUsualPlace() {
        let cut = Array(Self.description(control: "/Server0/CDS_control").prefix(200))
        let withDTD = Array("<?xml version=\"1.0\"?><!DOCTYPE root [<!ENTITY a \"b\">]><root/>".utf8)
        let noContentDirectory = Array(
            ("<root><device><serviceList><service><serviceType>urn:schemas-upnp-org:service:ConnectionManager:1"
                + "</serviceType><controlURL>/cms</controlURL></service></serviceList></device></root>").utf8)
        let elsewhere = Self.description(control: "http://192.168.54.2:60606/Server0/CDS_control")
        let notHTTP = Self.description(control: "ftp://192.168.54.1/cds")
        let tooLong = Self.description(control: String(repeating: "x", count: 70_000))
        for body in [cut, withDTD, noContentDirectory, elsewhere, notHTTP, tooLong, [], Array("not xml".utf8)] {
            #expect(Self.control(body) == nil, "\(String(decoding: body.prefix(120), as: UTF8.self))")
        }
    }

    /// Runs `body` with a simulated Lumix at a loopback address of its own (so that port 60606 is free there), its
    /// commands' and content directory's ports, and stops it.
    static func withSimulator(
        descriptionPort: UInt16?,
        _ body: (_ address: String, _ port: UInt16, _ contentPort: UInt16) async throws -> Void
    ) async throws {
        let address = "127.0.\(Int.random(in: 1...254)).\(Int.random(in: 2...254))"
        var configuration = LumixSimulator.Configuration(bindAddress: address, port: 0, contentPort: 0)
        configuration.descriptionPort = descriptionPort
        let simulator = LumixSimulator(configuration: configuration)
        let (port, contentPort) = try simulator.start()
        do {
            try await body(address, port, contentPort)
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
        await offThePool { simulator.stop() }
    }

    /// Lists the card of the camera the Lumix connector makes for `address`.
    static func listedNames(at address: CameraAddress) async throws -> [String] {
        let configuration = LumixCameraTests.camera(port: 80).configuration
        let camera = try await LumixCameraConnector(configuration: configuration).camera(of: .panasonic, at: address)
        try await camera.connect()
        let files = try #require(camera as? LumixCamera)
        let names = try await files.contents(of: nil, in: try #require(try await files.storages().first)).map(\.name)
        try await camera.disconnect()
        return names
    }

    /// A camera reached by its address alone, as `--host` reaches it, whose content directory is on a port other
    /// than 60606: its description at port 60606 names it.
    @Test func aContentDirectoryOffPort60606IsFoundThroughTheDescriptionThere() async throws {
        try await Self.withSimulator(descriptionPort: 60606) { address, port, contentPort in
            #expect(contentPort != 60606)
            let names = try await Self.listedNames(at: .network(host: address, port: port))
            #expect(names.count == 2, "\(names)")
        }
    }

    /// A camera found over SSDP: the description its LOCATION gives, on the content directory's port, is read.
    @Test func theDescriptionAnnouncedNamesTheContentDirectory() async throws {
        try await Self.withSimulator(descriptionPort: nil) { address, port, contentPort in
            let location = "http://\(address):\(contentPort)/Lumix/Server0/ddd"
            let names = try await Self.listedNames(at: .network(host: address, port: port, path: location))
            #expect(names.count == 2, "\(names)")
        }
    }

    /// A description that cannot be used (missing, longer than a description's bound, out of form) is asked for
    /// once, and the card is listed at the usual place on the content port.
    @Test(arguments: [
        ScriptedHTTPResponder.Answer.raw(Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n".utf8)),
        .body([UInt8](repeating: UInt8(ascii: " "), count: 70_000)), .body(Array("<root><device>".utf8)),
    ])
    func anUnusableDescriptionLeavesTheUsualPlace(_ description: ScriptedHTTPResponder.Answer) async throws {
        let tz90 = RecordedTZ90()
        tz90.override(
            "mode=get_content_info",
            with: .body(Array("<camrply><result>ok</result><content_number>1</content_number></camrply>".utf8)))
        let content = try ScriptedHTTPResponder { path in
            guard path == "/Server0/CDS_control" else { return description }
            let didl =
                "<DIDL-Lite><item id=\"7\"><res protocolInfo=\"http-get:*:image/jpeg:PANASONIC.COM_PN=CAM_ORG\">"
                + "http://127.0.0.1:1/DO7.JPG</res></item></DIDL-Lite>"
            return .body(LumixContentDirectoryTests.browseAnswer(Array(didl.utf8), returned: 1))
        }
        let responder = try ScriptedHTTPResponder(answer: tz90.answer)
        do {
            let camera = LumixCameraTests.camera(port: responder.port, contentPort: content.port)
            try await camera.connect()
            let storage = try #require(try await camera.storages().first)
            for _ in 0..<2 {
                #expect(try await camera.contents(of: nil, in: storage).map(\.name) == ["DO7.JPG"])
            }
            #expect(content.queries == ["/Lumix/Server0/ddd", "/Server0/CDS_control", "/Server0/CDS_control"])
            try await camera.disconnect()
        } catch {
            await offThePool { responder.close() }
            await offThePool { content.close() }
            throw error
        }
        await offThePool { responder.close() }
        await offThePool { content.close() }
    }

    @Test func aDescriptionAnnouncedElsewhereThanOnTheCameraIsRefused() async throws {
        let error = await #expect(throws: ViewfinderError.self) {
            _ = try await LumixCameraConnector().camera(
                of: .panasonic, at: .network(host: "192.168.54.1", port: nil, path: "http://10.0.0.9/Lumix/Server0/ddd")
            )
        }
        #expect(error?.code == .invalidArgument)
    }
}
