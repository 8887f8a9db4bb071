import Testing
import ViewfinderCore
import ViewfinderLumix
import ViewfinderSystem
import ViewfinderTestSupport

/// Peers that answer as no Lumix would: each connection ends with a clear error, within the command's deadline and
/// the answer's bound.
@Suite struct LumixHostilePeerTests {
    /// Connects to a TZ90 whose answer to `query` is `answer`, and returns the error the connection ends with.
    static func connectionError(
        answering query: String, with answer: ScriptedHTTPResponder.Answer, maximumAnswerLength: Int = 4 << 20,
        requestTimeout: Duration = LumixCameraTests.deadline
    ) async throws -> ViewfinderError? {
        let tz90 = RecordedTZ90()
        tz90.override(query, with: answer)
        return try await LumixCameraTests.connectionError(
            tz90, maximumAnswerLength: maximumAnswerLength, requestTimeout: requestTimeout)
    }

    @Test func aBodyLongerThanTheBoundIsRefusedBeforeItIsRead() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\nConnection: close\r\n\r\n"
        let error = try await Self.connectionError(
            answering: "mode=getinfo&type=capability", with: .raw(Array(head.utf8)))
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("longer than") == true, "\(String(describing: error))")
    }

    @Test func anEndlessChunkedAnswerStopsAtTheBound() async throws {
        let error = try await Self.connectionError(
            answering: "mode=getstate", with: .endlessChunks(intervalMilliseconds: 0), maximumAnswerLength: 256 << 10)
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("longer than the 262144 bytes") == true, "\(String(describing: error))")
    }

    @Test func aSlowEndlessChunkedAnswerStopsAtTheDeadline() async throws {
        let error = try await Self.connectionError(
            answering: "mode=getstate", with: .endlessChunks(intervalMilliseconds: 50), requestTimeout: .seconds(1))
        #expect(error?.code == .timeout, "\(String(describing: error))")
    }

    @Test func chunksOutOfFormAreRefused() async throws {
        let answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n<camrply>\r\n0\r\n\r\n"
        let error = try await Self.connectionError(answering: "mode=getstate", with: .raw(Array(answer.utf8)))
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("chunks") == true, "\(String(describing: error))")
    }

    @Test func garbageXMLIsRefusedWithWhatIsWrong() async throws {
        for (body, words) in [
            ("<camrply><result>ok</result><state><batt>3/3</state></camrply>", "out of order"),
            ("<camrply><result>ok</result><state", "does not end"),
            ("<!DOCTYPE camrply [<!ENTITY a \"aaaa\">]><camrply>&a;</camrply>", "DTD"),
            ("<html><body>hello</body></html>", "not <camrply>"),
            (String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40), "deeper"),
        ] {
            let error = try await Self.connectionError(answering: "mode=getstate", with: .body(Array(body.utf8)))
            #expect(error?.code == .malformedData, "\(body)")
            #expect(error?.message.contains(words) == true, "\(String(describing: error))")
        }
    }

    @Test func anHTTPErrorStatusIsNamed() async throws {
        let answer = "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n"
        let error = try await Self.connectionError(
            answering: "mode=camcmd&value=recmode", with: .raw(Array(answer.utf8)))
        #expect(error?.code == .malformedData)
        #expect(error?.message.contains("HTTP 403") == true, "\(String(describing: error))")
    }

    @Test func anAnswerCutShortIsADisconnection() async throws {
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n<camrply>"
        let error = try await Self.connectionError(answering: "mode=getstate", with: .raw(Array(answer.utf8)))
        #expect(error?.code == .disconnected)
        #expect(error?.message.contains("before its answer was whole") == true, "\(String(describing: error))")
    }

    @Test func aDownloadCutShortIsADisconnection() async throws {
        let tz90 = RecordedTZ90()
        tz90.override(
            "mode=get_content_info",
            with: .body(Array("<camrply><result>ok</result><content_number>1</content_number></camrply>".utf8)))
        let port = Locked<UInt16>(0)
        let content = try ScriptedHTTPResponder { path in
            guard path == "/Server0/CDS_control" else {
                return .raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n\u{FF}\u{D8}".utf8))
            }
            let didl =
                "<DIDL-Lite><item id=\"7\"><res protocolInfo=\"http-get:*:image/jpeg:PANASONIC.COM_PN=CAM_ORG\">"
                + "http://127.0.0.1:\(port.withLock { $0 })/DO7.JPG</res></item></DIDL-Lite>"
            return .body(LumixContentDirectoryTests.browseAnswer(Array(didl.utf8), returned: 1))
        }
        port.withLock { $0 = content.port }
        let responder = try ScriptedHTTPResponder(answer: tz90.answer)
        do {
            let camera = LumixCameraTests.camera(port: responder.port, contentPort: content.port)
            try await camera.connect()
            let items = try await camera.contents(of: nil, in: try #require(try await camera.storages().first))
            #expect(items.map(\.name) == ["DO7.JPG"])
            let error = await #expect(throws: ViewfinderError.self) { _ = try await camera.downloadData(of: items[0]) }
            #expect(error?.code == .disconnected)
            #expect(error?.message.contains("closed the connection after") == true, "\(String(describing: error))")
            try await camera.disconnect()
        } catch {
            await offThePool { responder.close() }
            await offThePool { content.close() }
            throw error
        }
        await offThePool { responder.close() }
        await offThePool { content.close() }
    }
}
