import Testing
import ViewfinderCore
import ViewfinderSystem

@testable import ViewfinderRigNetwork

/// The rig's messages and names: what is taken, and what is refused with a reason.
@Suite struct RigWireTests {
    @Test func aCommandRoundTripsInSnakeCase() throws {
        let command = RigWire.Command(
            op: "fire", id: "c1-7", hosts: ["h1", "h2"], atNs: 1_700_000_000_123_456_789, take: "t1", download: true)
        let bytes = RigWire.encode(command)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"at_ns\":1700000000123456789"), "\(text)")
        #expect(text.contains("\"v\":1"), "\(text)")
        #expect(try RigWire.decode(RigWire.Command.self, from: bytes) == command)
    }

    /// Each kind of bad message is refused, and the reason names what is wrong.
    @Test(arguments: [
        ("not json at all", "not a JSON object"),
        (#"[1,2]"#, "not a JSON object"),
        (#"{"op":"ping","id":"a"}"#, "format version none"),
        (#"{"v":2,"op":"ping","id":"a"}"#, "format version 2"),
        (#"{"v":1,"op":"explode","id":"a"}"#, "operation 'explode'"),
        (#"{"v":1,"op":"ping","id":"../etc"}"#, "identifier '../etc'"),
        (#"{"v":1,"op":"ping","id":""}"#, "identifier ''"),
        (#"{"v":1,"op":"ping"}"#, "no 'id'"),
        (#"{"v":1,"op":"ping","id":7}"#, "'id' is not what it should be"),
        (#"{"v":1,"op":"fire","id":"a","take":"t"}"#, "needs 'at_ns'"),
        (#"{"v":1,"op":"fire","id":"a","at_ns":5,"take":"a/b"}"#, "take 'a/b'"),
        (#"{"v":1,"op":"set","id":"a","property":"iso"}"#, "needs a 'property'"),
        (#"{"v":1,"op":"ping","id":"a","hosts":["vf/#"]}"#, "host 'vf/#'"),
        (#"{"v":1,"op":"ping","id":"a","timeout_ms":0}"#, "timeout of 0 ms"),
    ])
    func malformedCommandsAreRefusedWithTheirReason(text: String, reason: String) {
        #expect {
            try RigWire.decode(RigWire.Command.self, from: Array(text.utf8))
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func aMessageLongerThanTheLimitIsRefusedBeforeItIsRead() {
        let long = [UInt8](repeating: UInt8(ascii: " "), count: RigWire.maximumMessageSize + 1)
        #expect {
            try RigWire.decode(RigWire.Command.self, from: long)
        } throws: { error in
            "\(error)".contains("more than the \(RigWire.maximumMessageSize) taken")
        }
    }

    @Test func repliesListOnlyFilesWithDigestsAtHTTPAddresses() throws {
        let file = RigWire.File(
            name: "cam0-DSC_0001.JPG", size: 10, sha256: String(repeating: "ab", count: 32),
            url: "http://10.0.0.2:80/files/t/cam0-DSC_0001.JPG")
        var reply = RigWire.Reply(
            id: "c-1", op: "fire", host: "h1", status: "ok", receivedNs: 1, sentNs: 2,
            cameras: [.init(camera: "cam0", ok: true, durationMs: 1, files: [file])])
        #expect(try RigWire.decode(RigWire.Reply.self, from: RigWire.encode(reply)) == reply)
        reply.cameras?[0].files?[0].sha256 = "xyz"
        #expect(throws: RigWire.Refusal.self) { try RigWire.decode(RigWire.Reply.self, from: RigWire.encode(reply)) }
        reply.cameras?[0].files?[0] = file
        reply.cameras?[0].files?[0].url = "file:///etc/passwd"
        #expect(throws: RigWire.Refusal.self) { try RigWire.decode(RigWire.Reply.self, from: RigWire.encode(reply)) }
        reply.cameras?[0].files?[0] = file
        reply.cameras?[0].files?[0].name = "../../x"
        #expect(throws: RigWire.Refusal.self) { try RigWire.decode(RigWire.Reply.self, from: RigWire.encode(reply)) }
    }

    @Test func namesAreSafeInTopicsPathsAndFileNames() {
        for name in ["h1", "cam-07", "take_2.b", String(repeating: "x", count: 64)] {
            #expect(RigWire.isValidName(name), "\(name)")
        }
        for name in ["", ".hidden", "a/b", "+", "#", "a b", "é", String(repeating: "x", count: 65), "a\u{0}"] {
            #expect(!RigWire.isValidName(name), "\(name)")
        }
    }

    @Test func topicsNameTheirHostAndOnlyTheRigsReplyTopicsAreAnsweredOn() {
        let topics = RigTopics(rig: "studio")
        #expect(topics.state(of: "h3") == "vf/studio/host/h3/state")
        #expect(topics.host(ofState: "vf/studio/host/h3/state") == "h3")
        #expect(topics.host(ofState: "vf/studio/host/a/b/state") == nil)
        #expect(topics.host(ofState: "vf/other/host/h3/state") == nil)
        #expect(topics.isReplyTopic("vf/studio/coord/c12/reply"))
        #expect(!topics.isReplyTopic("vf/studio/host/h3/state"))
        #expect(!topics.isReplyTopic("vf/studio/coord/a/b/reply"))
        #expect(!topics.isReplyTopic("elsewhere/reply"))
    }

    @Test func theLedgerAppliesACommandOnceAndAnswersItsCopies() {
        let ledger = CommandLedger(capacity: 2)
        #expect(ledger.take("a") == .new)
        #expect(ledger.take("a") == .running)
        #expect(ledger.runningCount == 1)
        ledger.finish("a", answer: [1, 2])
        #expect(ledger.take("a") == .done([1, 2]))
        #expect(ledger.runningCount == 0)
        // The oldest is forgotten past the capacity.
        #expect(ledger.take("b") == .new)
        #expect(ledger.take("c") == .new)
        #expect(ledger.take("a") == .new)
    }

    @Test func theClockEstimateIsNTPsAndKeepsTheShortestRoundTrip() {
        // The host is 5 ms ahead; 1 ms each way, the host answers 2 ms after receiving.
        let estimate = RigClockEstimate(sent: 0, received: 6_000_000, answered: 8_000_000, arrived: 4_000_000)
        #expect(estimate.offset == .milliseconds(5))
        #expect(estimate.roundTrip == .milliseconds(2))
        #expect(estimate.uncertainty == .milliseconds(1))
        // Uneven ways: 3 ms there and 1 ms back put the estimate 1 ms off, within the uncertainty of 2 ms.
        let uneven = RigClockEstimate(sent: 0, received: 8_000_000, answered: 8_000_000, arrived: 4_000_000)
        #expect(uneven.offset == .milliseconds(6))
        #expect(uneven.uncertainty == .milliseconds(2))
        let best = uneven.combined(with: estimate)
        #expect(best.offset == .milliseconds(5))
        #expect(best.samples == 2)
    }

    @Test func brokerURLs() throws {
        let plain = try RigBroker(url: "mqtt://10.0.0.1")
        #expect(plain.host == "10.0.0.1" && plain.port == 1883 && plain.tls == nil)
        let secure = try RigBroker(url: "mqtts://broker.lan")
        #expect(secure.port == 8883 && secure.tls != nil)
        let ipv6 = try RigBroker(url: "mqtt://[fd00::1]:1884/")
        #expect(ipv6.host == "fd00::1" && ipv6.port == 1884)
        #expect(ipv6.url == "mqtt://[fd00::1]:1884")
        for bad in ["http://x", "mqtt://", "mqtt://host:0", "mqtt://host:99999", "mqtt://user@host", "mqtt://[fd00::1"]
        {
            #expect(throws: ViewfinderError.self, "\(bad)") { try RigBroker(url: bad) }
        }
    }

    @Test func sha256InPiecesIsSHA256AtOnce() {
        var generator = SystemRandomNumberGenerator()
        let message = (0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for pieces in [[1, 63, 64, 65], [0, 128, 3], [4096], [7, 7, 7, 7, 500]] {
            var hash = SHA256()
            var offset = 0
            for size in pieces + [message.count] {
                let end = min(message.count, offset + size)
                hash.update(message[offset..<end])
                offset = end
            }
            #expect(hash.finalize() == SHA256.digest(message), "\(pieces)")
        }
        var million = SHA256()
        for _ in 0..<1000 { million.update([UInt8](repeating: UInt8(ascii: "a"), count: 1000)) }
        #expect(
            SHA256.hexadecimal(million.finalize())
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func aFloodOfRefusalsIsLoggedInBrief() {
        let lines = Locked<[String]>([])
        let log = RefusalLog(burst: 3, every: 10) { line in lines.withLock { $0.append(line) } }
        for index in 1...30 { log.refused(on: "vf/r/cmd", because: "bad \(index)") }
        let logged = lines.withLock { $0 }
        #expect(logged.count == 3 + 3)
        #expect(logged[0] == "refused a message on vf/r/cmd: bad 1")
        #expect(logged[3] == "refused a message on vf/r/cmd: bad 10 (10 messages refused so far)")
        #expect(log.total == 30)
    }
}
