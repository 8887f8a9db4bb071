import Testing
import ViewfinderHTTPMessage

/// The one reader and writer of HTTP/1.1 heads.
@Suite struct HTTPHeadTests {
    private func parse(_ text: String, maximumFieldCount: Int = 64) throws(HTTPHead.Failure) -> HTTPHead {
        try HTTPHead(parsing: Array(text.utf8), maximumFieldCount: maximumFieldCount)
    }

    @Test func aHeadIsReadAsItsStartLineAndFieldsInOrder() throws {
        let head = try parse("HTTP/1.1 200 OK\r\nContent-Length:  5 \r\nX-Two:\ta\r\nx-two: b\r\n\r\nbody")
        #expect(head.startLine == "HTTP/1.1 200 OK")
        #expect(head.startWords == ["HTTP/1.1", "200", "OK"])
        #expect(head.fields == [.init("Content-Length", "5"), .init("X-Two", "a"), .init("x-two", "b")])
        #expect(head["content-length"] == "5")
        #expect(head["X-TWO"] == "a")
        #expect(head["Host"] == nil)
    }

    @Test func linesMayEndInLFAloneAndLeadingEmptyLinesArePassedOver() throws {
        let head = try parse("\r\n\nNOTIFY * HTTP/1.1\nNT: upnp:rootdevice\n")
        #expect(head.startLine == "NOTIFY * HTTP/1.1")
        #expect(head.fields == [.init("NT", "upnp:rootdevice")])
    }

    @Test func aFieldWithoutANameOrTooManyFieldsAreRefused() {
        #expect(throws: HTTPHead.Failure.fieldWithoutName("NTS ssdp-alive")) {
            try parse("NOTIFY * HTTP/1.1\r\nNTS ssdp-alive\r\n\r\n")
        }
        #expect(throws: HTTPHead.Failure.fieldWithoutName(": value")) { try parse("GET / HTTP/1.1\r\n: value\r\n") }
        let fields = (0..<3).map { "F\($0): v\r\n" }.joined()
        #expect(throws: HTTPHead.Failure.tooManyFields) {
            try parse("GET / HTTP/1.1\r\n" + fields, maximumFieldCount: 2)
        }
        #expect((try? parse("GET / HTTP/1.1\r\n" + fields, maximumFieldCount: 3))?.fields.count == 3)
    }

    @Test func aHeadIsWrittenWithCRLFAndReadBackTheSame() throws {
        let head = HTTPHead(
            startLine: "GET /x HTTP/1.1", fields: [.init("Host", "h:80"), .init("Connection", "close")])
        #expect(head.encoded() == Array("GET /x HTTP/1.1\r\nHost: h:80\r\nConnection: close\r\n\r\n".utf8))
        #expect(try HTTPHead(parsing: head.encoded()) == head)
    }

    @Test func theEndOfAHeadIsFoundPastItsEmptyLine() {
        let bytes = Array("GET / HTTP/1.1\r\nHost: h\r\n\r\nbody".utf8)
        #expect(HTTPHead.end(in: bytes) == bytes.count - 4)
        #expect(HTTPHead.end(in: bytes, from: bytes.count - 8) == bytes.count - 4)
        #expect(HTTPHead.end(in: Array("GET / HTTP/1.1\r\nHost: h\r\n".utf8)) == nil)
        #expect(HTTPHead.end(in: []) == nil)
    }
}
