import Testing
import ViewfinderHTTPMessage

/// Answer bodies read as they arrive: by length, in chunks or up to the close, within a bound.
@Suite struct HTTPBodyReaderTests {
    private func reader(_ head: String, maximumLength: Int = 1024) throws -> HTTPBodyReader {
        try HTTPBodyReader(head: try HTTPHead(parsing: Array(head.utf8)), maximumLength: maximumLength)
    }

    /// Feeds `bytes` one byte at a time, as the slowest peer would send them.
    private func feedBytewise(_ bytes: String, to reader: inout HTTPBodyReader) throws(HTTPBodyReader.Failure) {
        for byte in Array(bytes.utf8) {
            try reader.take([byte][...])
        }
    }

    @Test func aBodyByLengthEndsAtItsLengthAndIgnoresWhatFollows() throws {
        var body = try reader("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n")
        try body.take(Array("hel".utf8)[...])
        #expect(!body.isComplete)
        try body.take(Array("lo, and more".utf8)[...])
        #expect(body.isComplete)
        #expect(body.body == Array("hello".utf8))
        #expect(body.excess == ", and more".utf8.count)
        try body.take(Array("!".utf8)[...])
        #expect(body.excess == ", and more!".utf8.count)
        #expect(!body.endsAtClose)
    }

    @Test func bytesAfterTheLastChunkAreCountedAndTheBodyAloneIsNot() throws {
        let chunked = "5\r\nhello\r\n0\r\n\r\n"
        var alone = try reader("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        try alone.take(Array(chunked.utf8)[...])
        #expect(alone.isComplete)
        #expect(alone.excess == 0)
        var followed = try reader("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        try followed.take(Array((chunked + "HTTP/1.1").utf8)[...])
        #expect(followed.body == Array("hello".utf8))
        #expect(followed.excess == "HTTP/1.1".utf8.count)
    }

    @Test func chunksSplitAnywhereMakeTheSameBody() throws {
        let chunked = "5;name=value\r\nhello\r\n7\r\n, world\r\n0\r\nTrailer: x\r\n\r\n"
        var body = try reader("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        try feedBytewise(chunked, to: &body)
        #expect(body.isComplete)
        #expect(body.body == Array("hello, world".utf8))
        var whole = try reader("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        try whole.take(Array(chunked.utf8)[...])
        #expect(whole.body == body.body)
    }

    @Test func aBodyUpToTheCloseIsWholeAtTheClose() throws {
        var body = try reader("HTTP/1.1 200 OK\r\n\r\n")
        #expect(body.endsAtClose)
        try body.take(Array("ok,1".utf8)[...])
        #expect(!body.isComplete)
        try body.finishAtClose()
        #expect(body.isComplete)
        #expect(body.body == Array("ok,1".utf8))
    }

    @Test func boundsAndFormsAreKept() throws {
        #expect(throws: HTTPBodyReader.Failure.tooLong(1024)) {
            try reader("HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n")
        }
        var endless = try reader("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(throws: HTTPBodyReader.Failure.tooLong(1024)) {
            for _ in 0..<10 {
                try endless.take(Array(("100\r\n" + String(repeating: "x", count: 256) + "\r\n").utf8)[...])
            }
        }
        var unbounded = try reader("HTTP/1.1 200 OK\r\n\r\n")
        #expect(throws: HTTPBodyReader.Failure.tooLong(1024)) {
            try unbounded.take([UInt8](repeating: 0, count: 1025)[...])
        }
        for malformed in ["zz\r\n", "5\r\nhelloX", String(repeating: "0", count: 2000)] {
            var body = try reader("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            #expect(throws: HTTPBodyReader.Failure.malformedChunk, "\(malformed.prefix(20))") {
                try body.take(Array(malformed.utf8)[...])
            }
        }
        var short = try reader("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n")
        try short.take(Array("abc".utf8)[...])
        #expect(throws: HTTPBodyReader.Failure.truncated) { try short.finishAtClose() }
    }
}
