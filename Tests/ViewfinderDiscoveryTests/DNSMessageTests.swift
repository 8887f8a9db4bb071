import Testing
import ViewfinderCore
import ViewfinderTestSupport

@testable import ViewfinderDiscovery

/// DNS messages against python3-zeroconf, an independent mDNS implementation: its messages decode to what it put
/// in them, and it reads ours as we meant them; then messages no peer should send.
@Suite struct DNSMessageTests {
    /// Runs the zeroconf peer script.
    static func zeroconf(_ arguments: [String]) async throws -> [String] {
        let script = String(#filePath.dropLast("DNSMessageTests.swift".count)) + "Peers/zeroconf-dns.py"
        let result = try await ChildProcess.run(["/usr/bin/python3", script] + arguments)
        guard result.status == 0 else {
            throw TestFailure("python3-zeroconf failed (make test-deps installs it):\n\(result.output)")
        }
        return result.output.split(separator: "\n").map(String.init)
    }

    static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), next > index {
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }

    static let service = try! DNSName("_ptp._tcp.local")
    static let instance = try! DNSName("_ptp._tcp.local", prefixedBy: "Nikon Z 6 (Study)")
    static let host = try! DNSName("nikon-z6.local")

    @Test func zeroconfsQueryAnnouncementAndGoodbyeDecode() async throws {
        let messages = try await Self.zeroconf(["make"]).map { try DNSMessage(decoding: Self.bytes(hex: $0)) }
        try #require(messages.count == 3)

        let query = messages[0]
        #expect(!query.isResponse)
        #expect(query.questions == [DNSQuestion(name: Self.service, type: DNSRecordType.ptr)])
        #expect(query.records.isEmpty)

        let announcement = messages[1]
        #expect(announcement.isResponse)
        #expect(announcement.flags == DNSMessage.responseFlags)
        let records = announcement.records
        try #require(records.count == 5)
        #expect(records[0] == DNSRecord(name: Self.service, data: .pointer(Self.instance), timeToLive: 4500))
        #expect(records[0].data == .pointer(Self.instance))
        #expect(records[0].name.description == "_ptp._tcp.local.")
        #expect(records[1].data == .service(priority: 0, weight: 0, port: 15740, target: Self.host))
        #expect(records[1].flushesCache)
        #expect(records[1].name.firstLabel == "Nikon Z 6 (Study)")
        #expect(
            records[2].textValues == ["guid": "0123456789abcdef", "vid": "04b0", "pid": "0442", "apps": ""])
        #expect(records[3].data == .ipv4([192, 168, 1, 1]))
        #expect(records[4].data == .ipv6([0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1]))
        #expect(records.allSatisfy { $0.timeToLive == 4500 && $0.recordClass == 1 })

        let goodbye = messages[2]
        #expect(goodbye.records.map(\.name) == records.map(\.name))
        #expect(goodbye.records.allSatisfy { $0.timeToLive == 0 })

        // What we read, we write again the same.
        for message in messages {
            #expect(try DNSMessage(decoding: message.encoded()) == message)
        }
    }

    @Test func zeroconfReadsOurAnnouncementAsMeant() async throws {
        let message = DNSMessage(
            flags: DNSMessage.responseFlags,
            answers: [DNSRecord(name: Self.service, data: .pointer(Self.instance), timeToLive: 4500)],
            additionals: [
                DNSRecord(
                    name: Self.instance, data: .service(priority: 0, weight: 0, port: 15740, target: Self.host),
                    timeToLive: 120, flushesCache: true),
                DNSRecord(
                    name: Self.instance, data: .text([Array("guid=42".utf8), Array("model=EOS R6".utf8)]),
                    timeToLive: 4500, flushesCache: true),
                DNSRecord(name: Self.host, data: .ipv4([10, 77, 0, 1]), timeToLive: 120, flushesCache: true),
            ])
        let bytes = try message.encoded()
        // Compression: the service type is written once and pointed to after.
        #expect(bytes.count < 160)
        let lines = try await Self.zeroconf(["read", Self.hex(bytes)])
        let text = Self.hex(Array("\u{7}guid=42\u{C}model=EOS R6".utf8))
        #expect(
            lines == [
                "valid 0x8400",
                "record _ptp._tcp.local. 12 False 4500 Nikon Z 6 (Study)._ptp._tcp.local.",
                "record Nikon Z 6 (Study)._ptp._tcp.local. 33 True 120 0 0 15740 nikon-z6.local.",
                "record Nikon Z 6 (Study)._ptp._tcp.local. 16 True 4500 \(text)",
                "record nikon-z6.local. 1 True 120 10.77.0.1",
            ])
    }

    @Test func namesCompareWithoutCaseAndPrintAsDNSSDDoes() throws {
        #expect(try DNSName("_PTP._TCP.Local") == Self.service)
        #expect(try DNSName("_PTP._TCP.Local").hashValue == Self.service.hashValue)
        #expect(Self.instance.hasSuffix(Self.service))
        #expect(!Self.service.hasSuffix(Self.instance))
        #expect(Self.instance.parent == Self.service)
        #expect(try DNSName("local", prefixedBy: "a.b\\c").description == "a\\.b\\\\c.local.")
        #expect(throws: ViewfinderError.self) { try DNSName(labels: [[UInt8](repeating: 65, count: 64)]) }
        #expect(throws: ViewfinderError.self) {
            try DNSName(labels: [[UInt8]](repeating: [UInt8](repeating: 65, count: 63), count: 4))
        }
        #expect(throws: ViewfinderError.self) { try DNSName("a..local") }
    }

    /// A header with the given counts, then `body`.
    static func message(questions: UInt16 = 0, answers: UInt16 = 0, _ body: [UInt8]) -> [UInt8] {
        [0, 0, 0x84, 0, UInt8(questions >> 8), UInt8(questions & 0xFF), UInt8(answers >> 8), UInt8(answers & 0xFF)]
            + [0, 0, 0, 0] + body
    }

    /// A record's fixed part after its name: type, class IN, TTL 120, and the data length.
    static func recordHeader(type: UInt16, length: UInt16) -> [UInt8] {
        [UInt8(type >> 8), UInt8(type & 0xFF), 0, 1, 0, 0, 0, 120, UInt8(length >> 8), UInt8(length & 0xFF)]
    }

    @Test(
        arguments: [
            ("a pointer to itself", message(questions: 1, [0xC0, 12, 0, 12, 0, 1]), "points forward"),
            ("a pointer forward", message(questions: 1, [0xC0, 20, 0, 12, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]), "forward"),
            (
                "two names pointing at each other",
                message(questions: 2, [1, 65, 0xC0, 18, 0, 12, 0, 1, 1, 66, 0xC0, 12, 0, 12, 0, 1]), "forward"
            ),
            (
                "a name of 300 bytes made of pointers",
                message(
                    questions: 6,
                    [60] + [UInt8](repeating: 65, count: 60) + [0, 0, 12, 0, 1]
                        + (0..<5).flatMap { index -> [UInt8] in
                            let previous = 12 + (index == 0 ? 0 : 66 + (index - 1) * 67)
                            return [60] + [UInt8](repeating: 66, count: 60)
                                + [0xC0 | UInt8(previous >> 8), UInt8(previous & 0xFF), 0, 12, 0, 1]
                        }), "longer than 255"
            ),
            ("a label past the end", message(questions: 1, [40, 65, 66]), "runs past"),
            ("a reserved label type", message(questions: 1, [0x80, 0, 12, 0, 1]), "reserved"),
            ("65535 questions in 12 bytes", message(questions: 65535, []), "runs past the end"),
            (
                "65535 records, one there",
                message(answers: 65535, [0] + recordHeader(type: 1, length: 4) + [1, 2, 3, 4]), "runs past the end"
            ),
            (
                "an A record of 5 bytes",
                message(answers: 1, [0] + recordHeader(type: 1, length: 5) + [1, 2, 3, 4, 5]), "holds 5"
            ),
            (
                "a TXT string past its record",
                message(answers: 1, [0] + recordHeader(type: 16, length: 3) + [9, 65, 66]), "runs past"
            ),
            (
                "a record longer than the message",
                message(answers: 1, [0] + recordHeader(type: 16, length: 900) + [0]), "ends"
            ),
            (
                "an SRV shorter than its target",
                message(answers: 1, [0] + recordHeader(type: 33, length: 7) + [0, 0, 0, 0, 0, 80, 1, 65, 0]),
                "does not fill"
            ),
            ("bytes after the records", message([1, 2, 3]), "after its records"),
            ("a message of 10000 bytes", [UInt8](repeating: 0, count: 10000), "longer than 9000"),
        ] as [(String, [UInt8], String)])
    func malformedMessagesAreRefusedClearly(_ name: String, _ bytes: [UInt8], _ message: String) {
        let error = #expect(throws: ViewfinderError.self, "\(name)") { try DNSMessage(decoding: bytes) }
        #expect(error?.code == .malformedData, "\(name)")
        #expect(error?.message.contains(message) == true, "\(name): \(String(describing: error?.message))")
    }
}

extension DNSMessageTests {
    @Test func ipv6AddressesAreWrittenAsRFC5952Says() {
        let text = { (groups: [UInt16]) in
            MulticastDNSCache.text(ofIPv6: groups.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        }
        #expect(text([0xFD77, 0, 0, 0, 0, 0, 0, 1]) == "fd77::1")
        #expect(text([0x2001, 0xDB8, 0, 0, 1, 0, 0, 1]) == "2001:db8::1:0:0:1")
        #expect(text([0x2001, 0xDB8, 0, 1, 1, 1, 1, 1]) == "2001:db8:0:1:1:1:1:1")
        #expect(text([0, 0, 0, 0, 0, 0, 0, 0]) == "::")
        #expect(text([1, 0, 0, 0, 0, 0, 0, 0]) == "1::")
    }
}
