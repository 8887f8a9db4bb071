import Testing
import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderHTTPMessage
import ViewfinderSonyRemote
import ViewfinderSystem
import ViewfinderTestSupport

/// Peers that answer as no Sony would: each connection ends with a clear error, within the call's deadline and the
/// answer's bound.
@Suite struct SonyRemoteHostilePeerTests {
    /// A device description naming the camera service at `port` on loopback.
    static func description(port: UInt16) -> ScriptedHTTPResponder.Answer {
        .body(
            Array(
                ("<?xml version=\"1.0\"?><root xmlns=\"urn:schemas-upnp-org:device-1-0\"><device>"
                    + "<friendlyName>ILCE-6000</friendlyName><av:X_ScalarWebAPI_DeviceInfo xmlns:av=\"urn:schemas-sony-com:av\">"
                    + "<av:X_ScalarWebAPI_Version>1.0</av:X_ScalarWebAPI_Version><av:X_ScalarWebAPI_ServiceList>"
                    + "<av:X_ScalarWebAPI_Service><av:X_ScalarWebAPI_ServiceType>camera</av:X_ScalarWebAPI_ServiceType>"
                    + "<av:X_ScalarWebAPI_ActionList_URL>http://127.0.0.1:\(port)/sony</av:X_ScalarWebAPI_ActionList_URL>"
                    + "</av:X_ScalarWebAPI_Service></av:X_ScalarWebAPI_ServiceList></av:X_ScalarWebAPI_DeviceInfo>"
                    + "</device></root>").utf8))
    }

    /// Connects to a peer that serves a description at `/dd.xml` (`description`, or one naming its own camera
    /// service) and answers every call with `answer`, and returns the error the connection ends with.
    static func connectionError(
        description: ScriptedHTTPResponder.Answer? = nil, answer: ScriptedHTTPResponder.Answer,
        maximumAnswerLength: Int = 1 << 20, requestTimeout: Duration = SonyRemoteCameraTests.deadline
    ) async throws -> ViewfinderError? {
        let port = Locked<UInt16>(0)
        let responder = try ScriptedHTTPResponder { target in
            target == "/dd.xml" ? description ?? Self.description(port: port.withLock { $0 }) : answer
        }
        port.withLock { $0 = responder.port }
        let camera = SonyRemoteCameraTests.camera(
            port: responder.port, requestTimeout: requestTimeout, maximumAnswerLength: maximumAnswerLength)
        let error = await #expect(throws: ViewfinderError.self) { try await camera.connect() }
        #expect(camera.connectionState == .notConnected)
        await offThePool { responder.close() }
        return error
    }

    @Test func aBodyLongerThanTheBoundIsRefusedBeforeItIsRead() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\nConnection: close\r\n\r\n"
        let error = try await Self.connectionError(answer: .raw(Array(head.utf8)))
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("longer than") == true, "\(String(describing: error))")
    }

    @Test func anEndlessChunkedAnswerStopsAtTheBound() async throws {
        let error = try await Self.connectionError(
            answer: .endlessChunks(intervalMilliseconds: 0), maximumAnswerLength: 256 << 10)
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("longer than the 262144 bytes") == true, "\(String(describing: error))")
    }

    @Test func aCallThatNeverEndsStopsAtTheDeadline() async throws {
        let error = try await Self.connectionError(
            answer: .endlessChunks(intervalMilliseconds: 50), requestTimeout: .seconds(1))
        #expect(error?.code == .timeout, "\(String(describing: error))")
    }

    @Test func malformedJSONIsAClearError() async throws {
        let error = try await Self.connectionError(answer: .body(Array("{\"result\": [[\"getEvent\",".utf8)))
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("getAvailableApiList") == true, "\(String(describing: error))")
        #expect(error?.message.contains("not JSON") == true, "\(String(describing: error))")
    }

    @Test func anErrorArraySaysWhatTheCameraRefused() async throws {
        let error = try await Self.connectionError(
            answer: .body(Array("{\"error\": [40401, \"Camera Not Ready\"], \"id\": 1}".utf8)))
        #expect(error?.code == .deviceBusy)
        #expect(
            error?.message.contains("refused getAvailableApiList: error 40401 \"Camera Not Ready\"") == true,
            "\(String(describing: error))")
    }

    @Test func aDescriptionWithoutACameraServiceIsNoSony() async throws {
        let error = try await Self.connectionError(
            description: .body(
                Array("<?xml version=\"1.0\"?><root><device><friendlyName>TV</friendlyName></device></root>".utf8)),
            answer: .body([]))
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("no Sony Camera Remote API body") == true, "\(String(describing: error))")
    }

    @Test func aCancelledExchangeEndsBeforeItsDeadline() async throws {
        // A peer that takes the connection and never answers.
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { listener.close() }
        let thread = try IOThread(name: "test-exchange")
        defer { thread.stop() }
        let cancellation = HTTPExchangeCancellation()
        let port = listener.localPort
        let exchange = Task {
            try await HTTPClient.run(on: thread, peer: "the silent peer") {
                () throws(ViewfinderError) -> HTTPClient.Answer in
                try cancellation.exchange(
                    HTTPURL(host: "127.0.0.1", port: port, target: "/sony/camera").getRequest(), host: "127.0.0.1",
                    port: port, deadline: .now + .seconds(3600), maximumBodyLength: 1024, activity: "waiting")
            }
        }
        // Once the exchange has connected, it waits for an answer that never comes, until cancelled.
        let client = try await offThePool { try listener.accept(timeout: .seconds(60)) }
        defer { client?.close() }
        #expect(client != nil)
        cancellation.cancel()
        let error = await #expect(throws: ViewfinderError.self) { try await exchange.value }
        #expect(error?.code == .notConnected, "\(String(describing: error))")
        #expect(error?.message.contains("cancelled") == true, "\(String(describing: error))")
    }
}
