import Testing
import ViewfinderTestSupport

/// `viewfinder simulate` as a process: it listens, answers both halves of a PTP/IP client's handshake, and stops on
/// Ctrl-C.
@Suite struct SimulateCommandTests {
    @Test func answersThePTPIPHandshakeAndStopsOnInterrupt() async throws {
        try await onOwnThread {
            let process = try Tool.start(["simulate", "--port", "0", "--model", "Test Body"], waitingFor: " as ")
            let line = process.standardOutput.split(separator: "\n").first { $0.hasPrefix("listening on 127.0.0.1:") }
            let port = try #require(
                line.flatMap { UInt16($0.dropFirst(23).prefix { $0.isNumber }) }, "\(process.standardOutput)")
            #expect(line?.hasSuffix("as Viewfinder Test Body (generic)") == true, "\(process.standardOutput)")

            // PTP/IP Init Command Request: length, type 1, GUID, the client's name in UTF-16 with a terminator, version.
            let name = Array("cli-test".utf16) + [0]
            var request: [UInt8] = []
            let length = 8 + 16 + name.count * 2 + 4
            request += littleEndian(UInt32(length)) + littleEndian(UInt32(1)) + Array(repeating: 0x42, count: 16)
            request += name.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            request += littleEndian(UInt32(0x0001_0000))
            let connection = try TestConnection(port: port)
            try connection.send(request)

            let header = try connection.read(count: 8)
            let replyLength = Int(value(header, at: 0))
            #expect(value(header, at: 4) == 2, "packet type \(value(header, at: 4)) is not Init Command Ack")
            try #require((8 + 4 + 16 + 2...1024).contains(replyLength), "reply length \(replyLength)")
            let body = try connection.read(count: replyLength - 8)
            let session = value(body, at: 0)
            #expect(session != 0, "the session number is 0")
            var units: [UInt16] = []
            var offset = 20
            while offset + 1 < body.count, body[offset] != 0 || body[offset + 1] != 0 {
                units.append(UInt16(body[offset]) | UInt16(body[offset + 1]) << 8)
                offset += 2
            }
            #expect(String(decoding: units, as: UTF16.self) == "Test Body", "the camera calls itself \(units)")

            // Init Event Request with the session's number; the answer is Init Event Ack (type 4).
            let events = try TestConnection(port: port)
            try events.send(littleEndian(12) + littleEndian(3) + littleEndian(session))
            let eventAck = try events.read(count: 8)
            #expect(value(eventAck, at: 0) == 8 && value(eventAck, at: 4) == 4, "not an Init Event Ack: \(eventAck)")

            process.interrupt()
            let status = process.wait(timeout: .seconds(30))
            #expect(status == 0, "stderr: \(process.standardError)")
            #expect(process.standardOutput.contains("stopping"), "\(process.standardOutput)")
        }
    }

    @Test func anOlympusAnswersItsCommandsAndStopsOnInterrupt() async throws {
        try await onOwnThread {
            let process = try Tool.start(
                ["simulate", "--identity", "olympus", "--port", "0", "--sample-images", "1"], waitingFor: " as ")
            let line = process.standardOutput.split(separator: "\n").first { $0.hasPrefix("listening on 127.0.0.1:") }
            let port = try #require(
                line.flatMap { UInt16($0.dropFirst(23).prefix { $0.isNumber }) }, "\(process.standardOutput)")
            #expect(line?.hasSuffix("as an Olympus E-M10MarkII") == true, "\(process.standardOutput)")

            let info = try TestConnection(port: port)
            // Each request asks the camera to close after its answer, which the test reads to the end.
            try info.request("/get_caminfo.cgi", headers: ["Connection": "close"])
            let head = try info.readHead()
            #expect(head.status == 200)
            #expect(head.headers["content-type"] == "text/xml")
            #expect(String(decoding: try info.readToEnd(), as: UTF8.self).contains("<model>E-M10MarkII</model>"))
            let listing = try TestConnection(port: port)
            try listing.request("/get_imglist.cgi?DIR=%2FDCIM%2F100OLYMP", headers: ["Connection": "close"])
            #expect(try listing.readHead().status == 200)
            #expect(String(decoding: try listing.readToEnd(), as: UTF8.self).contains("/DCIM/100OLYMP,PC060001.JPG,"))

            process.interrupt()
            #expect(process.wait(timeout: .seconds(30)) == 0, "stderr: \(process.standardError)")
            #expect(process.standardOutput.contains("stopping"), "\(process.standardOutput)")
        }
    }

    @Test func saysWhenThePortIsTaken() async throws {
        try await onOwnThread {
            let first = try Tool.start(["simulate", "--port", "0"], waitingFor: " as ")
            let line = first.standardOutput.split(separator: "\n").first { $0.hasPrefix("listening on 127.0.0.1:") }
            let port = try #require(line.flatMap { String($0.dropFirst(23).prefix { $0.isNumber }) })
            let second = try Tool.run("simulate", "--port", port, timeout: .seconds(60))
            #expect(second.status != 0, "\(second)")
            #expect(second.standardError.contains("another program uses the port"), "\(second)")
            first.interrupt()
            #expect(first.wait(timeout: .seconds(30)) == 0)
        }
    }

    /// The user a USB camera is served as is checked before anything is made; --user is --usb's alone.
    @Test func aUserToServeAsIsCheckedFirst() async throws {
        try await onOwnThread {
            let stranger = try Tool.run("simulate", "--usb", "--user", "no-such-user-of-this-machine")
            #expect(stranger.status == 64, "\(stranger)")
            #expect(stranger.standardError.contains("there is no user 'no-such-user-of-this-machine'"), "\(stranger)")
            let withoutUSB = try Tool.run("simulate", "--user", "nobody")
            #expect(withoutUSB.status == 64, "\(withoutUSB)")
            #expect(withoutUSB.standardError.contains("--user is for --usb"), "\(withoutUSB)")
        }
    }

    private func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private func value(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }
}
