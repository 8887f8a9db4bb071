import Viewfinder
import ViewfinderSystem

/// The request line of an HTTP request: what the preview server needs of it.
struct HTTPRequest: Equatable {
    /// The method, such as `GET`.
    var method: String
    /// The path without the query, such as `/stream.mjpeg`.
    var path: String
    /// The query's parameters, such as `viewer` in `/stream.mjpeg?viewer=a1`.
    var query: [String: String]

    /// The longest request head read; browsers send well under 2 KiB.
    static let maximumHeadSize = 8192

    /// Why a request could not be read, with the status to answer.
    enum Failure: Error, Equatable {
        /// The head was not HTTP.
        case malformed
        /// The head was longer than ``HTTPRequest/maximumHeadSize``.
        case tooLarge
        /// The head did not arrive in time.
        case timedOut
        /// The peer closed the connection before sending a whole head.
        case closed

        /// The status line to answer with, if any.
        var status: String? {
            switch self {
            case .malformed: "400 Bad Request"
            case .tooLarge: "431 Request Header Fields Too Large"
            case .timedOut: "408 Request Timeout"
            case .closed: nil
            }
        }
    }

    /// Reads a request head from `socket` until `deadline`, and parses its request line.
    static func read(from socket: Socket, until deadline: ContinuousClock.Instant) throws -> HTTPRequest {
        var head: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while !head.contains(end) {
            guard head.count < maximumHeadSize else { throw Failure.tooLarge }
            let count = try chunk.withUnsafeMutableBytes { try socket.receiveNow(into: $0, while: "reading a request") }
            switch count {
            case 0:
                throw Failure.closed
            case let count?:
                head += chunk.prefix(min(count, maximumHeadSize + end.count - head.count))
            case nil:
                let ready = try Poll.wait(socket.descriptor, for: Poll.readable, until: deadline)
                guard ready != 0 else { throw Failure.timedOut }
            }
        }
        return try parse(String(decoding: head, as: UTF8.self))
    }

    /// Parses the first line of a request head, such as `GET /stats HTTP/1.1`.
    static func parse(_ head: String) throws(Failure) -> HTTPRequest {
        let line = head.prefix { !$0.isNewline }
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1."), parts[1].hasPrefix("/") else { throw .malformed }
        let target = parts[1]
        let path = target.prefix { $0 != "?" }
        var query: [String: String] = [:]
        for pair in target.dropFirst(path.count + 1).split(separator: "&") {
            let sides = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            query[String(sides[0])] = sides.count > 1 ? String(sides[1]) : ""
        }
        return HTTPRequest(method: String(parts[0]), path: String(path), query: query)
    }
}

/// A whole HTTP response with a body, sent with `Connection: close`.
struct HTTPResponse {
    /// The status, such as `200 OK`.
    var status: String
    /// The body's media type.
    var contentType: String
    /// The body.
    var body: [UInt8]

    /// A plain-text response, for errors.
    static func text(_ status: String, _ message: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8))
    }

    /// Sends the response on `socket` until `deadline`; only the head for `HEAD` requests.
    func send(on socket: Socket, headOnly: Bool = false, until deadline: ContinuousClock.Instant) throws {
        let head = """
            HTTP/1.1 \(status)\r
            Content-Type: \(contentType)\r
            Content-Length: \(body.count)\r
            Cache-Control: no-store\r
            Connection: close\r
            \r

            """
        try socket.send(Array(head.utf8), until: deadline, more: !headOnly && !body.isEmpty, while: "answering")
        guard !headOnly else { return }
        try socket.send(body, until: deadline, while: "answering")
    }
}
