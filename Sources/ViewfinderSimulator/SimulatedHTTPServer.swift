import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A request a simulated HTTP camera received: its head, body and the peer's address.
struct SimulatedHTTPRequest {
    var head: HTTPHead
    var body: [UInt8]
    var peer: String

    /// The path, without the query.
    var path: String {
        let target = head.startWords.dropFirst().first.map(String.init) ?? "/"
        return String(target.prefix { $0 != "?" })
    }

    /// The query's fields, percent escapes decoded, such as `mode` → `getstate`; the first of a repeated name counts.
    var query: [String: String] {
        let target = head.startWords.dropFirst().first.map(String.init) ?? ""
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var fields: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            let value = parts.count > 1 ? String(parts[1]) : ""
            fields[String(parts[0])] = fields[String(parts[0])] ?? value.percentDecoded
        }
        return fields
    }
}

/// An answer of a simulated HTTP camera: status, content type and body, or a stream of no set length.
struct SimulatedHTTPAnswer {
    var status = "200 OK"
    var contentType = "text/xml"
    var body: [UInt8]
    /// When set, what writes the body after the head, which has no length: the connection's end ends the body.
    var stream: (@Sendable (Socket) -> Void)?

    init(
        status: String = "200 OK", contentType: String = "text/xml", body: [UInt8],
        stream: (@Sendable (Socket) -> Void)? = nil
    ) {
        self.status = status
        self.contentType = contentType
        self.body = body
        self.stream = stream
    }
}

/// The HTTP server of a simulated camera: it listens on a port and answers each request on a thread of its own (one
/// connection at a time unless told to take more side by side), closing the connection after each answer (a streamed
/// answer or a long poll holds its thread until it ends).
final class SimulatedHTTPServer: Sendable {
    private let listener: Socket
    private let threads: [PlatformThread]

    /// The port it listens on.
    var port: UInt16 { listener.localPort }

    /// Listens on `host` and `port` (0 for a free one) and answers each request with `answer`, adding `fields` (such
    /// as `Server`) to each answer's head, on `connections` threads that each take one connection at a time.
    ///
    /// - Throws: A `ViewfinderError` when the port cannot be bound or a thread not started.
    init(
        host: String, port: UInt16, name: String, fields: [HTTPHead.Field] = [], connections: Int = 1,
        _ answer: @escaping @Sendable (SimulatedHTTPRequest) -> SimulatedHTTPAnswer
    ) throws {
        let listener: Socket
        do {
            listener = try Socket.listen(host: host, port: port)
        } catch {
            throw ViewfinderError(error)
        }
        var threads: [PlatformThread] = []
        do {
            for _ in 0..<max(1, connections) {
                threads.append(try Self.thread(name: name, listener: listener, fields: fields, answer))
            }
        } catch {
            listener.shutdown()
            for thread in threads { thread.join() }
            listener.close()
            throw error
        }
        self.listener = listener
        self.threads = threads
    }

    /// A thread that takes the listener's connections one at a time and answers them.
    private static func thread(
        name: String, listener: Socket, fields: [HTTPHead.Field],
        _ answer: @escaping @Sendable (SimulatedHTTPRequest) -> SimulatedHTTPAnswer
    ) throws -> PlatformThread {
        try PlatformThread(name: name) {
            // Until stop() shuts the listener down, which ends accept with an error: a client may come after any
            // pause, and a camera left waiting longer than accept's timeout still answers.
            while true {
                let client: Socket
                do {
                    guard let accepted = try listener.accept(timeout: .seconds(3600)) else { continue }
                    client = accepted
                } catch {
                    return
                }
                if let request = Self.read(from: client) {
                    let reply = answer(request)
                    let length: [HTTPHead.Field] =
                        reply.stream == nil ? [.init("Content-Length", String(reply.body.count))] : []
                    let head = HTTPHead(
                        startLine: "HTTP/1.1 \(reply.status)",
                        fields: fields + [.init("Content-Type", reply.contentType)] + length + [
                            .init("Connection", "close")
                        ])
                    if (try? client.send(head.encoded() + reply.body, timeout: .seconds(10), while: "answering"))
                        != nil
                    {
                        reply.stream?(client)
                    }
                }
                client.close()
            }
        }
    }

    /// Stops listening and waits for the threads to end.
    func stop() {
        listener.shutdown()
        for thread in threads { thread.join() }
        listener.close()
    }

    /// Reads one request, its body bounded to 64 KiB, within 10 seconds.
    private static func read(from client: Socket) -> SimulatedHTTPRequest? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        let deadline = ContinuousClock.now + .seconds(10)
        func receive() -> Bool {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let count = buffer.withUnsafeMutableBytes { raw in
                (try? client.receive(into: raw, timeout: left, while: "reading a request")) ?? 0
            }
            received += buffer[..<count]
            return count > 0
        }
        var end: Int?
        while end == nil {
            guard received.count < 65536, receive() else { return nil }
            end = HTTPHead.end(in: received)
        }
        guard let end, let head = try? HTTPHead(parsing: received[..<end]) else { return nil }
        let peer = SocketAddress.filling { getpeername(client.descriptor, $0, &$1) }.1.host
        guard head["content-length"] != nil else { return SimulatedHTTPRequest(head: head, body: [], peer: peer) }
        guard var body = try? HTTPBodyReader(head: head, maximumLength: 65536) else { return nil }
        var taken = received[end...]
        while (try? body.take(taken)) != nil, !body.isComplete {
            let before = received.count
            guard receive() else { return nil }
            taken = received[before...]
        }
        return body.isComplete ? SimulatedHTTPRequest(head: head, body: body.body, peer: peer) : nil
    }
}

extension String {
    /// The text with its `%XX` escapes decoded (and `+` left as it is); an escape that is not two hex digits, or
    /// bytes that are not UTF-8, stay as they are.
    fileprivate var percentDecoded: String {
        func hexDigit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        let utf8 = Array(self.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count, let high = hexDigit(utf8[index + 1]),
                let low = hexDigit(utf8[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}
