import Foundation
import Viewfinder
import ViewfinderSystem

/// An HTTP request as the tool's servers read it: the request line, the header fields and a short body.
struct HTTPRequest: Equatable {
    /// The method, such as `GET`.
    var method: String
    /// The path without the query, such as `/stream.mjpeg`; `%` escapes are left as they came.
    var path: String
    /// The query's parameters, such as `viewer` in `/stream.mjpeg?viewer=a1`, with `%` escapes decoded.
    var query: [String: String]
    /// The header fields, by their names in lower case.
    var headers: [String: String] = [:]
    /// The body, as long as `Content-Length` says.
    var body: [UInt8] = []

    /// The longest request head read; browsers send well under 2 KiB.
    static let maximumHeadSize = 8192
    /// The longest body read unless the caller allows more: the tool's forms send a few words.
    static let maximumBodySize = 16 * 1024

    /// Why a request could not be read, with the status to answer.
    enum Failure: Error, Equatable {
        /// The head was not HTTP.
        case malformed
        /// The head was longer than ``HTTPRequest/maximumHeadSize``.
        case tooLarge
        /// The body was longer than allowed.
        case bodyTooLarge
        /// The body came in chunks, which the servers do not take.
        case chunked
        /// The request did not arrive in time.
        case timedOut
        /// The peer closed the connection before sending a whole request.
        case closed

        /// The status line to answer with, if any.
        var status: String? {
            switch self {
            case .malformed: "400 Bad Request"
            case .tooLarge: "431 Request Header Fields Too Large"
            case .bodyTooLarge: "413 Content Too Large"
            case .chunked: "411 Length Required"
            case .timedOut: "408 Request Timeout"
            case .closed: nil
            }
        }
    }

    /// Reads a request from `socket` until `deadline`: its head, and a body of at most `maximumBodySize` bytes.
    static func read(
        from socket: Socket, until deadline: ContinuousClock.Instant, maximumBodySize: Int = maximumBodySize
    ) throws -> HTTPRequest {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        func receive() throws {
            let count = try chunk.withUnsafeMutableBytes { try socket.receiveNow(into: $0, while: "reading a request") }
            switch count {
            case 0:
                throw Failure.closed
            case let count?:
                bytes += chunk.prefix(count)
            case nil:
                let ready = try Poll.wait(socket.descriptor, for: Poll.readable, until: deadline)
                guard ready != 0 else { throw Failure.timedOut }
            }
        }
        var headEnd: Int?
        while headEnd == nil {
            headEnd = bytes.firstRange(of: end)?.upperBound
            guard headEnd == nil else { break }
            guard bytes.count < maximumHeadSize else { throw Failure.tooLarge }
            try receive()
        }
        let head = bytes[..<headEnd!]
        guard head.count <= maximumHeadSize + end.count else { throw Failure.tooLarge }
        var request = try parse(String(decoding: head, as: UTF8.self))
        if request.headers["transfer-encoding"] != nil { throw Failure.chunked }
        let length =
            try request.headers["content-length"].map { text throws(Failure) -> Int in
                guard let length = Int(text.trimmingCharacters(in: .whitespaces)), length >= 0 else { throw .malformed }
                return length
            } ?? 0
        guard length <= maximumBodySize else { throw Failure.bodyTooLarge }
        while bytes.count - headEnd! < length {
            try receive()
        }
        request.body = Array(bytes[headEnd!..<(headEnd! + length)])
        return request
    }

    /// Parses a request head, such as `GET /stats HTTP/1.1` and its header fields.
    static func parse(_ head: String) throws(Failure) -> HTTPRequest {
        var lines = head.split(omittingEmptySubsequences: true) { $0 == "\r\n" || $0 == "\n" }[...]
        guard let line = lines.popFirst() else { throw .malformed }
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), parts[1].hasPrefix("/") else { throw .malformed }
        let target = parts[1]
        let path = target.prefix { $0 != "?" }
        var request = HTTPRequest(
            method: String(parts[0]), path: String(path),
            query: formFields(String(target.dropFirst(path.count + 1))))
        for field in lines {
            guard let colon = field.firstIndex(of: ":") else { throw .malformed }
            let name = field[..<colon].lowercased()
            request.headers[name] = field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return request
    }

    /// The fields of a query or a form body, such as `af=1&name=a%20b`, with `+` and `%` escapes decoded.
    static func formFields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let sides = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            fields[decode(sides[0])] = sides.count > 1 ? decode(sides[1]) : ""
        }
        return fields
    }

    /// The body's form fields (`application/x-www-form-urlencoded`).
    var formFields: [String: String] { Self.formFields(String(decoding: body, as: UTF8.self)) }
}

/// A whole HTTP response with a body, sent with `Connection: close`.
struct HTTPResponse {
    /// The status, such as `200 OK`.
    var status: String
    /// The body's media type.
    var contentType: String
    /// The body.
    var body: [UInt8]
    /// More header fields, such as `Content-Disposition`.
    var headers: [(name: String, value: String)] = []

    /// A plain-text response, for errors.
    static func text(_ status: String, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8))
    }

    /// A JSON response with `value` encoded, keys sorted.
    static func json(_ value: some Encodable, status: String = "200 OK") -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)).map(Array.init) ?? Array("null".utf8)
        return HTTPResponse(status: status, contentType: "application/json", body: body)
    }

    /// Sends the response on `socket` until `deadline`; only the head for `HEAD` requests.
    func send(on socket: Socket, headOnly: Bool = false, until deadline: ContinuousClock.Instant) throws {
        let extra = headers.map { "\($0.name): \($0.value)\r\n" }.joined()
        let head = """
            HTTP/1.1 \(status)\r
            Content-Type: \(contentType)\r
            Content-Length: \(body.count)\r
            Cache-Control: no-store\r
            \(extra)Connection: close\r
            \r

            """
        try socket.send(Array(head.utf8), until: deadline, more: !headOnly && !body.isEmpty, while: "answering")
        guard !headOnly else { return }
        try socket.send(body, until: deadline, while: "answering")
    }
}
