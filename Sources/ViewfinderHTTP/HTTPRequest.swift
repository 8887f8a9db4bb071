import Foundation
import ViewfinderHTTPMessage
import ViewfinderSystem

/// An HTTP request as the tool's servers read it: the request line, the header fields and a short body.
///
/// Reading is bounded: a head of at most ``maximumHeadSize`` bytes and ``maximumHeaderCount`` fields, a body of at
/// most the size the server allows, all before a deadline. Anything HTTP/1.1 does not allow a server to guess at
/// (a field name with spaces, two `Host` or `Content-Length` fields, a length that is not a number) is refused.
package struct HTTPRequest: Equatable, Sendable {
    /// The method, such as `GET`.
    package var method: String
    /// The path without the query, such as `/stream.mjpeg`; `%` escapes are left as they came.
    package var path: String
    /// The query's parameters, such as `viewer` in `/stream.mjpeg?viewer=a1`, with `%` escapes decoded.
    package var query: [String: String]
    /// The header fields, by their names in lower case; repeated fields are joined with commas (cookies with
    /// semicolons).
    package var headers: [String: String] = [:]
    /// The body, as long as `Content-Length` says.
    package var body: [UInt8] = []

    /// The longest request head read; browsers send well under 2 KiB.
    package static let maximumHeadSize = 8192
    /// The most header fields read.
    package static let maximumHeaderCount = 64
    /// The longest body read unless the caller allows more: the tool's forms send a few words.
    package static let maximumBodySize = 16 * 1024

    /// Why a request could not be read, with the status to answer.
    package enum Failure: Error, Equatable {
        /// The head was not HTTP.
        case malformed
        /// The head was longer than ``HTTPRequest/maximumHeadSize``, or had too many fields.
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
        package var status: String? {
            switch self {
            case .malformed: "400 Bad Request"
            case .tooLarge: "431 Request Header Fields Too Large"
            case .bodyTooLarge: "413 Content Too Large"
            case .chunked: "411 Length Required"
            case .timedOut: "408 Request Timeout"
            case .closed: nil
            }
        }

        /// A sentence for the answer.
        package func message(maximumBodySize: Int) -> String {
            switch self {
            case .malformed: "The request is not HTTP/1.1."
            case .tooLarge:
                "The request's head is longer than \(HTTPRequest.maximumHeadSize) bytes or has more than "
                    + "\(HTTPRequest.maximumHeaderCount) fields."
            case .bodyTooLarge: "The request's body is longer than \(maximumBodySize) bytes."
            case .chunked: "Send the body with Content-Length."
            case .timedOut: "The request did not arrive in time."
            case .closed: ""
            }
        }
    }

    /// Reads a request from `socket` until `deadline`: its head, and a body of at most `maximumBodySize` bytes.
    ///
    /// The whole request must arrive by `deadline`, however slowly its bytes come, so a client that trickles them
    /// (or sends nothing) holds its connection no longer than that.
    package static func read(
        from socket: Socket, until deadline: ContinuousClock.Instant, maximumBodySize: Int = maximumBodySize
    ) throws(Failure) -> HTTPRequest {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        func receive() throws(Failure) {
            let received = chunk.withUnsafeMutableBytes { raw in
                Result { () throws(SocketError) in try socket.receiveNow(into: raw, while: "reading a request") }
            }
            switch received {
            case .success(0):
                throw .closed
            case .success(let count?):
                bytes += chunk.prefix(count)
            case .success(nil):
                guard let ready = try? Poll.wait(socket.descriptor, for: Poll.readable, until: deadline) else {
                    throw .closed
                }
                guard ready != 0 else { throw .timedOut }
            case .failure:
                throw .closed
            }
        }
        var headEnd: Int?
        var searched = 0
        while headEnd == nil {
            headEnd = HTTPHead.end(in: bytes, from: searched)
            guard headEnd == nil else { break }
            guard bytes.count < maximumHeadSize else { throw .tooLarge }
            searched = max(0, bytes.count - 3)
            try receive()
        }
        let end = headEnd!
        guard end <= maximumHeadSize + 4 else { throw .tooLarge }
        var request = try parse(bytes[..<end])
        if request.headers["transfer-encoding"] != nil { throw .chunked }
        let length = try request.headers["content-length"].map(contentLength) ?? 0
        guard length <= maximumBodySize else { throw .bodyTooLarge }
        while bytes.count - end < length {
            try receive()
        }
        request.body = Array(bytes[end..<(end + length)])
        return request
    }

    /// The length a `Content-Length` field gives: digits only, at most 18 of them.
    private static func contentLength(_ text: String) throws(Failure) -> Int {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }),
            let length = Int(text)
        else { throw .malformed }
        return length
    }

    /// Parses a request head, such as `GET /stats HTTP/1.1` and its header fields.
    package static func parse(_ head: String) throws(Failure) -> HTTPRequest {
        try parse(Array(head.utf8)[...])
    }

    /// Parses a request head's bytes.
    private static func parse(_ bytes: ArraySlice<UInt8>) throws(Failure) -> HTTPRequest {
        let head: HTTPHead
        do throws(HTTPHead.Failure) {
            head = try HTTPHead(parsing: bytes, maximumFieldCount: maximumHeaderCount)
        } catch {
            switch error {
            case .tooManyFields: throw .tooLarge
            case .fieldWithoutName: throw .malformed
            }
        }
        let parts = head.startLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, isToken(parts[0]), parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0",
            parts[1].hasPrefix("/"), parts[1].unicodeScalars.allSatisfy({ $0.value > 32 && $0.value < 127 })
        else { throw .malformed }
        let target = parts[1]
        let path = target.prefix { $0 != "?" }
        var request = HTTPRequest(
            method: String(parts[0]), path: String(path),
            query: formFields(String(target.dropFirst(path.count + 1))))
        for field in head.fields {
            guard isToken(field.name[...]) else { throw .malformed }
            let value = field.value
            guard value.unicodeScalars.allSatisfy({ $0.value >= 32 && $0.value != 127 || $0 == "\t" }) else {
                throw .malformed
            }
            let key = field.name.lowercased()
            guard let earlier = request.headers[key] else {
                request.headers[key] = value
                continue
            }
            // A second Host or length could make this server and another on the way read different requests.
            guard !["host", "content-length", "transfer-encoding"].contains(key) else { throw .malformed }
            request.headers[key] = earlier + (key == "cookie" ? "; " : ", ") + value
        }
        return request
    }

    /// Whether `text` is an HTTP token: a method or a field name, without spaces or separators.
    private static func isToken(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
            }
    }

    /// The fields of a query or a form body, such as `af=1&name=a%20b`, with `+` and `%` escapes decoded.
    package static func formFields(_ text: String) -> [String: String] {
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
    package var formFields: [String: String] { Self.formFields(String(decoding: body, as: UTF8.self)) }

    /// The cookies the request carries, by name.
    package var cookies: [String: String] {
        var cookies: [String: String] = [:]
        for pair in (headers["cookie"] ?? "").split(separator: ";") {
            let sides = pair.split(separator: "=", maxSplits: 1)
            guard sides.count == 2 else { continue }
            let name = sides[0].trimmingCharacters(in: .whitespaces)
            if cookies[name] == nil { cookies[name] = sides[1].trimmingCharacters(in: .whitespaces) }
        }
        return cookies
    }
}
