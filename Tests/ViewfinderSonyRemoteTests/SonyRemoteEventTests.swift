import Testing
import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSonyRemote
import ViewfinderSystem
import ViewfinderTestSupport

/// The `getEvent` long poll against a body that answers it as the simulator does not: its own timeout (error 2)
/// first, then an event whose objects sit in other slots than the simulator's.
@Suite struct SonyRemoteEventTests {
    /// The answer to one call, by its method and whether it is a long poll, numbered among the long polls.
    static func answer(method: String, longPoll: Bool, longPolls: Int) -> String {
        switch method {
        case "getAvailableApiList":
            return "{\"result\": [[\"getAvailableApiList\", \"getEvent\", \"actTakePicture\"]], \"id\": 1}"
        case "getEvent" where longPoll && longPolls == 1:
            return "{\"error\": [2, \"Timeout\"], \"id\": 1}"
        case "getEvent":
            let iso = longPoll ? "400" : "AUTO"
            return "{\"result\": [{\"type\": \"isoSpeedRate\", \"currentIsoSpeedRate\": \"\(iso)\", "
                + "\"isoSpeedRateCandidates\": [\"AUTO\", \"400\"]}, null], \"id\": 1}"
        default:
            return "{\"error\": [12, \"No Such Method\"], \"id\": 1}"
        }
    }

    @Test func theCamerasOwnTimeoutIsAskedAgainAndTheNextEventArrives() async throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let port = listener.localPort
        let longPolls = Locked(0)
        let server = try PlatformThread(name: "test-sony-events") {
            while let client = try? listener.accept(timeout: .seconds(60)) {
                defer { client.close() }
                guard let (target, body) = Self.request(from: client) else { continue }
                let text: String
                if target == "/dd.xml" {
                    text = Self.description(port: port)
                } else {
                    let call = (try? JSONValue(parsing: body)) ?? .null
                    let longPoll = call["params"]?.array?.first == .bool(true)
                    let method = call["method"]?.string ?? ""
                    let count = longPolls.withLock { count in
                        if method == "getEvent" && longPoll { count += 1 }
                        return count
                    }
                    // Past the second, a long poll waits as a camera's does, until the connection closes.
                    if method == "getEvent" && longPoll && count > 2 { _ = Self.request(from: client) }
                    text = Self.answer(method: method, longPoll: longPoll, longPolls: count)
                }
                let head = "HTTP/1.1 200 OK\r\nContent-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n"
                try? client.send(Array((head + text).utf8), timeout: .seconds(10), while: "answering")
            }
        }
        let camera = SonyRemoteCameraTests.camera(port: port)
        try await camera.connect()
        #expect(camera.property(for: .iso).commonValue == .automatic)
        try await waitUntil("the long poll after the camera's timeout to show ISO 400") {
            camera.property(for: .iso).commonValue == .iso400
        }
        #expect(longPolls.withLock { $0 } >= 2)
        #expect(camera.connectionState == .connected)
        try await camera.disconnect()
        await offThePool {
            listener.shutdown()
            server.join()
            listener.close()
        }
    }

    /// A device description naming the camera service at `port` on loopback.
    static func description(port: UInt16) -> String {
        "<?xml version=\"1.0\"?><root xmlns=\"urn:schemas-upnp-org:device-1-0\"><device>"
            + "<friendlyName>DSC-QX10</friendlyName><av:X_ScalarWebAPI_DeviceInfo xmlns:av=\"urn:schemas-sony-com:av\">"
            + "<av:X_ScalarWebAPI_ServiceList><av:X_ScalarWebAPI_Service>"
            + "<av:X_ScalarWebAPI_ServiceType>camera</av:X_ScalarWebAPI_ServiceType>"
            + "<av:X_ScalarWebAPI_ActionList_URL>http://127.0.0.1:\(port)/sony</av:X_ScalarWebAPI_ActionList_URL>"
            + "</av:X_ScalarWebAPI_Service></av:X_ScalarWebAPI_ServiceList></av:X_ScalarWebAPI_DeviceInfo>"
            + "</device></root>"
    }

    /// A request's target and body, read by its length; `nil` once the client closes or stalls for a minute.
    static func request(from client: Socket) -> (String, [UInt8])? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.count < 65536 {
            if let end = HTTPHead.end(in: received), let head = try? HTTPHead(parsing: received[..<end]) {
                let length = head["content-length"].flatMap { Int($0) } ?? 0
                if received.count - end >= length, head.startWords.count >= 2 {
                    return (String(head.startWords[1]), Array(received[end..<end + length]))
                }
            }
            let count = buffer.withUnsafeMutableBytes { raw in
                (try? client.receive(into: raw, timeout: .seconds(60), while: "reading a request")) ?? 0
            }
            guard count > 0 else { return nil }
            received += buffer[..<count]
        }
        return nil
    }
}
