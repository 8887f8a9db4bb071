import Foundation
import ViewfinderHTTPMessage
import ViewfinderSystem

/// A whole HTTP response with a body, sent with `Connection: close`, and the heads of responses whose body is sent
/// after them.
package struct HTTPResponse: Sendable {
    /// The status, such as `200 OK`.
    package var status: String
    /// The body's media type.
    package var contentType: String
    /// The body.
    package var body: [UInt8]
    /// More header fields, such as `Content-Disposition`.
    package var headers: [(name: String, value: String)] = []

    /// A response.
    package init(status: String, contentType: String, body: [UInt8], headers: [(name: String, value: String)] = []) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.headers = headers
    }

    /// A plain-text response, for errors.
    package static func text(_ status: String, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8))
    }

    /// A JSON response with `value` encoded, keys sorted.
    package static func json(_ value: some Encodable, status: String = "200 OK") -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)).map(Array.init) ?? Array("null".utf8)
        return HTTPResponse(status: status, contentType: "application/json", body: body)
    }

    /// How the body after a head is delimited.
    package enum BodyLength: Sendable {
        /// `Content-Length`.
        case bytes(UInt64)
        /// `Transfer-Encoding: chunked`, for a body whose length is not known in advance.
        case chunked
        /// Neither: the body ends when the connection closes, as a stream of parts does.
        case untilClosed
    }

    /// The head of a response: the status line, the media type, the body's length, `Cache-Control: no-store`, the
    /// fields given, and `Connection: close`.
    package static func head(
        status: String, contentType: String, length: BodyLength, headers: [(name: String, value: String)]
    ) -> [UInt8] {
        var fields = [HTTPHead.Field("Content-Type", contentType)]
        switch length {
        case .bytes(let count): fields.append(.init("Content-Length", "\(count)"))
        case .chunked: fields.append(.init("Transfer-Encoding", "chunked"))
        case .untilClosed: break
        }
        fields.append(.init("Cache-Control", "no-store"))
        fields += headers.map { HTTPHead.Field($0.name, $0.value) }
        fields.append(.init("Connection", "close"))
        return HTTPHead(startLine: "HTTP/1.1 \(status)", fields: fields).encoded()
    }

    /// Sends the response on `socket` until `deadline`, with `extraHeaders` after its own; only the head for `HEAD`
    /// requests.
    package func send(
        on socket: Socket, headOnly: Bool = false, extraHeaders: [(name: String, value: String)] = [],
        until deadline: ContinuousClock.Instant
    ) throws(SocketError) {
        let head = Self.head(
            status: status, contentType: contentType, length: .bytes(UInt64(body.count)),
            headers: headers + extraHeaders)
        try socket.send(head, until: deadline, more: !headOnly && !body.isEmpty, while: "answering")
        guard !headOnly else { return }
        try socket.send(body, until: deadline, while: "answering")
    }

    /// A `Content-Disposition` value that has a browser save the body as `name`: the name in ASCII with anything
    /// else replaced (for old clients), and exactly in UTF-8 as RFC 6266 and RFC 8187 write it.
    package static func attachment(named name: String) -> String {
        let plain = String(
            name.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && scalar.value >= 32 && scalar.value != 127 && scalar != "\"" && scalar != "\\"
                    && scalar != "%" ? Character(scalar) : "_"
            })
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~".utf8)
        let encoded = name.utf8.map { byte in
            unreserved.contains(byte)
                ? String(UnicodeScalar(byte)) : "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }.joined()
        return "attachment; filename=\"\(plain)\"; filename*=UTF-8''\(encoded)"
    }
}

/// The body of a response sent after its head, piece by piece: with its length given in advance, or in chunks.
///
/// Each piece has its own deadline, so a body of any size goes to a client as fast as it reads, and a client that
/// stops reading is dropped after a deadline without progress.
package struct HTTPBodyWriter {
    private let socket: Socket
    private let isChunked: Bool

    /// Sends `head` (made with ``HTTPResponse/head(status:contentType:length:headers:)``) and returns the writer of
    /// its body.
    package init(
        socket: Socket, head: [UInt8], length: HTTPResponse.BodyLength, until deadline: ContinuousClock.Instant
    )
        throws(SocketError)
    {
        self.socket = socket
        if case .chunked = length { isChunked = true } else { isChunked = false }
        try socket.send(head, until: deadline, more: true, while: "answering")
    }

    /// Sends the next piece of the body.
    package func write(_ bytes: [UInt8], until deadline: ContinuousClock.Instant) throws(SocketError) {
        guard !bytes.isEmpty else { return }
        if isChunked {
            try socket.send(
                Array((String(bytes.count, radix: 16) + "\r\n").utf8), until: deadline, more: true, while: "answering")
        }
        try socket.send(bytes, until: deadline, more: isChunked, while: "answering")
        if isChunked { try socket.send(Array("\r\n".utf8), until: deadline, while: "answering") }
    }

    /// Ends the body: the last, empty chunk of a chunked body; nothing for one whose length was given.
    package func finish(until deadline: ContinuousClock.Instant) throws(SocketError) {
        guard isChunked else { return }
        try socket.send(Array("0\r\n\r\n".utf8), until: deadline, while: "answering")
    }
}
