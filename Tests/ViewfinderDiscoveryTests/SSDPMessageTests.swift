import Testing
import ViewfinderCore

@testable import ViewfinderDiscovery

/// SSDP datagrams and UPnP device descriptions as Canon and Sony cameras send them, and ones no device should.
@Suite struct SSDPMessageTests {
    static func datagram(_ lines: [String]) -> [UInt8] {
        Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    static let canonAlive = datagram([
        "NOTIFY * HTTP/1.1",
        "Host: 239.255.255.250:1900",
        "Cache-Control: max-age=1800",
        "Location: http://192.168.1.2:49152/upnp/CameraDevDesc.xml",
        "NT: urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1",
        "NTS: ssdp:alive",
        "Server: Camera OS/1.0 UPnP/1.0 Canon Device Discovery/1.0",
        "USN: uuid:00000000-0000-0000-0001-60128B7C39A2::urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1",
    ])

    @Test func aCanonNotificationSaysWhatWhereAndForHowLong() throws {
        let message = try SSDPMessage(decoding: Self.canonAlive)
        #expect(message.kind == .notify)
        #expect(message.target == "urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1")
        #expect(message.location == "http://192.168.1.2:49152/upnp/CameraDevDesc.xml")
        #expect(message.deviceID == "uuid:00000000-0000-0000-0001-60128B7C39A2")
        #expect(message.maximumAge == 1800)
        #expect(!message.isByeBye)
        #expect(message["server"] == "Camera OS/1.0 UPnP/1.0 Canon Device Discovery/1.0")

        let byebye = try SSDPMessage(
            decoding: Self.datagram([
                "NOTIFY * HTTP/1.1", "NT: urn:microsoft-com:service:MtpNullService:1", "nts:ssdp:byebye",
                "USN: uuid:sony-a7iv::urn:microsoft-com:service:MtpNullService:1",
            ]))
        #expect(byebye.isByeBye)
        #expect(byebye.deviceID == "uuid:sony-a7iv")
        #expect(byebye.maximumAge == nil)
    }

    @Test func searchesAndAnswersTravelBothWays() throws {
        let search = SSDPMessage.search(for: "urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1", maximumWait: 9)
        let text = String(decoding: search.encoded(), as: UTF8.self)
        #expect(text.hasPrefix("M-SEARCH * HTTP/1.1\r\n"))
        #expect(text.contains("\r\nMAN: \"ssdp:discover\"\r\n"))
        #expect(text.contains("\r\nMX: 5\r\n"))
        #expect(text.hasSuffix("\r\n\r\n"))
        #expect(try SSDPMessage(decoding: search.encoded()) == search)

        // Answers come as HTTP responses, or (from some devices) as a unicast NOTIFY.
        let answer = try SSDPMessage(
            decoding: Self.datagram([
                "HTTP/1.1 200 OK", "CACHE-CONTROL: no-cache, max-age = 120",
                "ST: urn:schemas-sony-com:service:ScalarWebAPI:1",
                "USN: uuid:1234::urn:schemas-sony-com:service:ScalarWebAPI:1", "LOCATION: http://10.0.0.1:64321/dd.xml",
                "EXT:",
            ]))
        #expect(answer.kind == .response)
        #expect(answer.target == "urn:schemas-sony-com:service:ScalarWebAPI:1")
        #expect(answer.maximumAge == 120)
        #expect(answer["ext"] == "")
        #expect(try SSDPMessage(decoding: answer.encoded()) == answer)
        // Names go out in upper case, as devices write them: libsonyapi finds the description only after "LOCATION ".
        let encodedText = String(decoding: answer.encoded(), as: UTF8.self)
        #expect(encodedText.contains("\r\nLOCATION: http://10.0.0.1:64321/dd.xml\r\n"))
        #expect(encodedText.contains("\r\nST: urn:schemas-sony-com:service:ScalarWebAPI:1\r\n"))
    }

    @Test(
        arguments: [
            ("a start line of another protocol", datagram(["GET / HTTP/1.1", "Host: x"]), "starts with"),
            ("an HTTP error", datagram(["HTTP/1.1 404 Not Found"]), "starts with"),
            ("a header without a name", datagram(["NOTIFY * HTTP/1.1", ": value"]), "has no name"),
            ("a header without a colon", datagram(["NOTIFY * HTTP/1.1", "NTS ssdp-alive"]), "has no name"),
            ("65 headers", datagram(["NOTIFY * HTTP/1.1"] + (0..<65).map { "X-\($0): y" }), "more than 64"),
            ("bytes that are not text", [0x4E, 0x4F, 0xFF, 0xFE], "not UTF-8"),
            ("a datagram of 9000 bytes", [UInt8](repeating: 65, count: 9000), "longer than 8192"),
        ] as [(String, [UInt8], String)])
    func malformedDatagramsAreRefusedClearly(_ name: String, _ bytes: [UInt8], _ message: String) {
        let error = #expect(throws: ViewfinderError.self, "\(name)") { try SSDPMessage(decoding: bytes) }
        #expect(error?.code == .malformedData, "\(name)")
        #expect(error?.message.contains(message) == true, "\(name): \(String(describing: error?.message))")
    }

    /// A Canon EOS's CameraDevDesc.xml, in the shape the notes describe, with an embedded device after the fields.
    static let canonDescription = Array(
        """
        <?xml version="1.0"?>
        <!-- a Canon camera -->
        <root xmlns="urn:schemas-upnp-org:device-1-0" xmlns:ns="urn:schemas-canon-com:schema-upnp">
          <specVersion><major>1</major><minor>0</minor></specVersion>
          <device>
            <deviceType>urn:schemas-upnp-org:device:Basic:1</deviceType>
            <friendlyName>EOS R6 of Anna &amp; Ben</friendlyName>
            <manufacturer>Canon</manufacturer>
            <modelName>Canon EOS R6</modelName>
            <serialNumber>012345678901</serialNumber>
            <UDN>uuid:00000000-0000-0000-0001-60128B7C39A2</UDN>
            <serviceList>
              <service>
                <serviceType>urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1</serviceType>
                <ns:X_deviceUsbId>32b4</ns:X_deviceUsbId>
                <ns:X_deviceNickname>Anna&#x27;s R6</ns:X_deviceNickname>
              </service>
            </serviceList>
            <deviceList>
              <device>
                <manufacturer>Someone else</manufacturer>
                <UDN>uuid:embedded</UDN>
                <serviceList><service><serviceType>urn:x:service:Other:1</serviceType></service></serviceList>
              </device>
            </deviceList>
            <presentationURL/>
          </device>
        </root>
        """.utf8)

    @Test func aCanonDescriptionGivesItsMakerModelNamesAndServices() throws {
        let description = try UPnPDeviceDescription(decoding: Self.canonDescription)
        #expect(
            description
                == UPnPDeviceDescription(
                    manufacturer: "Canon", modelName: "Canon EOS R6", friendlyName: "EOS R6 of Anna & Ben",
                    udn: "uuid:00000000-0000-0000-0001-60128B7C39A2", serialNumber: "012345678901",
                    nickname: "Anna's R6",
                    serviceTypes: ["urn:schemas-canon-com:service:ICPO-WFTEOSSystemService:1", "urn:x:service:Other:1"])
        )
    }

    @Test(
        arguments: [
            (
                "an entity bomb's DTD",
                Array("<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY a \"aaaa\">]><root>&a;</root>".utf8), "DTD"
            ),
            (
                "nesting 40 deep",
                Array((String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)).utf8), "deeper"
            ),
            ("a tag that does not end", Array("<root><device".utf8), "does not end"),
            ("end tags out of order", Array("<root><device></root></device>".utf8), "out of order"),
            ("a comment that does not end", Array("<root><!-- a > b".utf8), "comment"),
            ("70 KiB", [UInt8](repeating: 32, count: 70 << 10), "longer than 64 KiB"),
        ] as [(String, [UInt8], String)])
    func hostileDescriptionsAreRefusedClearly(_ name: String, _ bytes: [UInt8], _ message: String) {
        let error = #expect(throws: ViewfinderError.self, "\(name)") { try UPnPDeviceDescription(decoding: bytes) }
        #expect(error?.code == .malformedData, "\(name)")
        #expect(error?.message.contains(message) == true, "\(name): \(String(describing: error?.message))")
    }

    @Test func unknownEntitiesAndReferencesBeyondUnicodeStayAsWritten() {
        #expect(
            XMLElements.unescaped(Array("a &bogus; b &#x110000; &#65;&lt;".utf8)[...])
                == "a &bogus; b &#x110000; A<")
    }
}
