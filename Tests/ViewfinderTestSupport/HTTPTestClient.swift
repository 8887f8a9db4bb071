#if canImport(Glibc)
import Glibc
#endif

/// An HTTP response as a test reads it.
public struct HTTPReply: Sendable {
    /// The status code, such as 200.
    public var status: Int
    /// The header fields, with lower-case names.
    public var headers: [String: String]
    /// The body (empty when only the head was read).
    public var body: [UInt8]

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking TCP connection to a server for tests, with a timeout on every read and write.
public final class TestConnection {
    private let descriptor: Int32
    private var buffered: [UInt8] = []

    /// Connects to `host:port`.
    ///
    /// - Parameters:
    ///   - host: A numeric IPv4 address; loopback by default.
    ///   - receiveBuffer: A receive buffer size to ask for, to make a slow reader whose data backs up quickly.
    ///   - timeout: How long each read or write may wait.
    public init(host: String = "127.0.0.1", port: UInt16, receiveBuffer: Int32? = nil, timeout: Duration = .seconds(30))
        throws
    {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
        var time = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            close(descriptor)
            throw TestFailure("'\(host)' is not a numeric IPv4 address")
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw TestFailure("cannot connect to \(host):\(port): errno \(errno)")
        }
    }

    deinit {
        close(descriptor)
    }

    /// Whether the server has sent something not read yet, without waiting for it.
    public var hasDataWaiting: Bool {
        guard buffered.isEmpty else { return true }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Sends bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, 0) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { throw TestFailure("send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends a `GET` (or another method's) request for `path`, with `Host: 127.0.0.1` and the fields given.
    public func request(_ path: String, method: String = "GET", headers: [String: String] = [:]) throws {
        try send(HTTPTestClient.head(method, path, headers))
    }

    /// Reads a line ending in CRLF, without the CRLF.
    public func readLine() throws -> String {
        while true {
            if let end = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffered[..<end]
                buffered.removeSubrange(...end)
                return String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
            }
            guard buffered.count < 16384 else { throw TestFailure("a line longer than 16 KiB") }
            guard try fill() else { throw TestFailure("the connection closed in the middle of a line") }
        }
    }

    /// Reads exactly `count` bytes.
    public func read(count: Int) throws -> [UInt8] {
        while buffered.count < count {
            guard try fill() else {
                throw TestFailure("the connection closed after \(buffered.count) of \(count) bytes")
            }
        }
        defer { buffered.removeSubrange(..<count) }
        return Array(buffered[..<count])
    }

    /// Reads until the server closes the connection.
    public func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { buffered = [] }
        return buffered
    }

    /// Reads a status line and header fields.
    public func readHead() throws -> HTTPReply {
        let statusLine = try readLine()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw TestFailure("not an HTTP status line: \(statusLine)")
        }
        return HTTPReply(status: status, headers: try readFields(), body: [])
    }

    /// Reads header fields up to the empty line.
    public func readFields() throws -> [String: String] {
        var headers: [String: String] = [:]
        while true {
            let line = try readLine()
            if line.isEmpty { return headers }
            guard let colon = line.firstIndex(of: ":") else { throw TestFailure("not a header field: \(line)") }
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            headers[line[..<colon].lowercased()] = String(value)
        }
    }

    /// Reads whatever arrives next into the buffer; returns `false` when the peer closed.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var count = recv(descriptor, &chunk, chunk.count, 0)
        // A signal (a child process ending, a debugger attaching) interrupts the wait; it is no answer.
        while count < 0 && errno == EINTR { count = recv(descriptor, &chunk, chunk.count, 0) }
        if count > 0 {
            buffered += chunk[..<count]
            return true
        }
        if count == 0 { return false }
        throw TestFailure(errno == EAGAIN ? "no data within the timeout" : "recv failed: errno \(errno)")
    }
}

/// One-request HTTP for tests.
public enum HTTPTestClient {
    /// A request head: `Host: 127.0.0.1` unless `headers` names another host, then the fields given.
    static func head(_ method: String, _ path: String, _ headers: [String: String]) -> [UInt8] {
        let host = headers.keys.contains { $0.lowercased() == "host" } ? "" : "Host: 127.0.0.1\r\n"
        let extra = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
        return Array("\(method) \(path) HTTP/1.1\r\n\(host)\(extra)\r\n".utf8)
    }

    /// Requests `path` from `host:port` with the header fields given, and reads the whole response.
    public static func get(
        host: String = "127.0.0.1", port: UInt16, _ path: String, method: String = "GET",
        headers: [String: String] = [:]
    ) throws -> HTTPReply {
        try exchange(host: host, port: port, head(method, path, headers), method: method)
    }

    /// Sends `fields` as a form to `path` with the header fields given, and reads the whole response.
    public static func post(
        host: String = "127.0.0.1", port: UInt16, _ path: String, form fields: String, headers: [String: String] = [:]
    ) throws -> HTTPReply {
        let form = [
            "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "\(fields.utf8.count)",
        ]
        let request = head("POST", path, headers.merging(form) { given, _ in given }) + Array(fields.utf8)
        return try exchange(host: host, port: port, request)
    }

    /// Sends `request` as it is, and reads the whole response.
    public static func exchange(host: String = "127.0.0.1", port: UInt16, _ request: [UInt8], method: String = "GET")
        throws -> HTTPReply
    {
        let connection = try TestConnection(host: host, port: port)
        try connection.send(request)
        var reply = try connection.readHead()
        if method != "HEAD" {
            reply.body = try connection.readToEnd()
            if reply.headers["transfer-encoding"]?.lowercased() == "chunked" {
                reply.body = try dechunked(reply.body)
            }
        }
        if let length = reply.headers["content-length"].flatMap(Int.init), method != "HEAD", length != reply.body.count
        {
            throw TestFailure("Content-Length says \(length) but the body has \(reply.body.count) bytes")
        }
        return reply
    }
}

/// The data of a chunked body: each chunk's hexadecimal size line and data, to the last chunk of size 0.
///
/// - Throws: ``TestFailure`` for a body that is not well-formed chunks.
func dechunked(_ body: [UInt8]) throws -> [UInt8] {
    var data: [UInt8] = []
    var position = 0
    func line() throws -> String {
        guard let end = body[position...].firstIndex(of: 0x0A), end > position, body[end - 1] == 0x0D else {
            throw TestFailure("a chunked body has no line ending after byte \(position)")
        }
        defer { position = end + 1 }
        return String(decoding: body[position..<(end - 1)], as: UTF8.self)
    }
    while true {
        let sizeLine = try line()
        guard let size = Int(sizeLine.prefix { $0 != ";" }, radix: 16), size >= 0 else {
            throw TestFailure("a chunked body has a chunk size line '\(sizeLine)'")
        }
        if size == 0 {
            guard try line().isEmpty, position == body.count else {
                throw TestFailure("a chunked body goes on after its last chunk")
            }
            return data
        }
        guard position + size + 2 <= body.count, body[position + size] == 0x0D, body[position + size + 1] == 0x0A else {
            throw TestFailure("a chunked body's chunk of \(size) bytes at byte \(position) is cut short")
        }
        data += body[position..<(position + size)]
        position += size + 2
    }
}

/// Reads a `multipart/x-mixed-replace` stream of JPEG images part by part.
public final class MJPEGTestReader {
    /// The connection the stream arrives on.
    public let connection: TestConnection
    /// The response head.
    public let head: HTTPReply
    private let boundary: String

    /// Requests `path` with the header fields given and reads the response head.
    public init(
        host: String = "127.0.0.1", port: UInt16, path: String = "/stream.mjpeg", receiveBuffer: Int32? = nil,
        headers: [String: String] = [:]
    ) throws {
        connection = try TestConnection(host: host, port: port, receiveBuffer: receiveBuffer)
        try connection.request(path, headers: headers)
        head = try connection.readHead()
        let type = head.headers["content-type"] ?? ""
        let parameter = type.split(separator: ";").map { $0.drop { $0 == " " } }.first { $0.hasPrefix("boundary=") }
        guard head.status == 200, type.hasPrefix("multipart/x-mixed-replace"), let parameter else {
            throw TestFailure("not a multipart stream: status \(head.status), Content-Type \(type)")
        }
        boundary = String(parameter.dropFirst("boundary=".count))
    }

    /// Reads the next part: its header fields and its body.
    public func readPart() throws -> (headers: [String: String], body: [UInt8]) {
        var line = try connection.readLine()
        while line.isEmpty { line = try connection.readLine() }
        guard line == "--" + boundary else { throw TestFailure("expected the boundary, got '\(line)'") }
        let headers = try connection.readFields()
        guard let length = headers["content-length"].flatMap(Int.init), (1...50_000_000).contains(length) else {
            throw TestFailure("a part without a usable Content-Length: \(headers)")
        }
        return (headers, try connection.read(count: length))
    }
}
