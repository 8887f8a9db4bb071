import Testing
import ViewfinderCore
import ViewfinderOlympus
import ViewfinderSystem
import ViewfinderTestSupport

/// Peers that answer as no Olympus would: each connection ends with a clear error, within the command's deadline and
/// the answer's bound.
@Suite struct OlympusHostilePeerTests {
    /// A connect mode that says an Olympus is there.
    static let connectMode = ScriptedHTTPResponder.Answer.body(
        Array("<?xml version=\"1.0\"?>\r\n<connectmode>OPC</connectmode>\r\n".utf8))

    /// Connects to a peer that answers `get_connectmode` with `connectMode` and every other request with `answer`,
    /// and returns the error the connection ends with.
    static func connectionError(
        connectMode: ScriptedHTTPResponder.Answer = connectMode, answer: ScriptedHTTPResponder.Answer,
        maximumAnswerLength: Int = 4 << 20, requestTimeout: Duration = OlympusCameraTests.deadline
    ) async throws -> ViewfinderError? {
        let responder = try ScriptedHTTPResponder { target in
            target == "/get_connectmode.cgi" ? connectMode : answer
        }
        let camera = OlympusCameraTests.camera(
            port: responder.port, maximumAnswerLength: maximumAnswerLength, requestTimeout: requestTimeout)
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

    @Test func aSlowEndlessChunkedAnswerStopsAtTheDeadline() async throws {
        let error = try await Self.connectionError(
            answer: .endlessChunks(intervalMilliseconds: 50), requestTimeout: .seconds(1))
        #expect(error?.code == .timeout, "\(String(describing: error))")
    }

    @Test func aCommandListOutOfFormIsRefusedWithWhatIsWrong() async throws {
        let error = try await Self.connectionError(
            answer: .body(Array("<oishare><cgi name=\"get_caminfo\"><http_method type=\"get\">".utf8)))
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("command list") == true, "\(String(describing: error))")
    }

    @Test func aPeerWithoutAConnectModeIsNoOlympus() async throws {
        let error = try await Self.connectionError(
            connectMode: .body(Array("<?xml version=\"1.0\"?><html>hello</html>".utf8)), answer: .body([]))
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("no Olympus") == true, "\(String(describing: error))")
    }

    @Test func malformedXMLInTheConnectModeIsRefused() async throws {
        let error = try await Self.connectionError(
            connectMode: .body(Array("<connectmode>OPC</wrong>".utf8)), answer: .body([]))
        #expect(error?.code == .malformedData, "\(String(describing: error))")
    }

    @Test func anHTTPErrorStatusIsNamed() async throws {
        let error = try await Self.connectionError(
            connectMode: .raw(Array("HTTP/1.1 500 Oops\r\nContent-Length: 0\r\n\r\n".utf8)), answer: .body([]))
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("HTTP 500") == true, "\(String(describing: error))")
    }

    @Test func anAnswerCutShortIsADisconnection() async throws {
        let error = try await Self.connectionError(
            answer: .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n<oishare>".utf8)))
        #expect(error?.code == .disconnected, "\(String(describing: error))")
    }
}
