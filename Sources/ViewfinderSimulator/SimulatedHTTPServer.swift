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

/// What a simulated camera's HTTP server does with a connection once it has answered.
enum SimulatedHTTPConnections: Sendable {
    /// Closes it after each answer, saying `Connection: close`.
    case closedAfterEachAnswer
    /// Keeps it open for the client's next request, as HTTP/1.1 lets a server do, until the client asks to close
    /// it, it sits idle for `idleTimeout`, or another client connects while every other thread holds a connection (a
    /// camera with fewer connections than clients drops its idle one); an HTTP/1.0 request is answered and closed.
    case keptAlive(idleTimeout: Duration)
}

/// The HTTP server of a simulated camera: it listens on a port and answers requests on threads of its own that each
/// serve one connection at a time (one thread unless told to take more side by side), closing the connection after
/// each answer or keeping it for the next request as told (a streamed answer or a long poll holds its thread until it
/// ends).
final class SimulatedHTTPServer: Sendable {
    private let listener: Socket
    private let threads: [PlatformThread]

    /// The port it listens on.
    var port: UInt16 { listener.localPort }

    /// Listens on `host` and `port` (0 for a free one) and answers each request with `answer`, adding `fields` (such
    /// as `Server`) to each answer's head, on `connections` threads that each take one connection at a time, and
    /// closing or keeping connections after an answer as `kept` says.
    ///
    /// - Throws: A `ViewfinderError` when the port cannot be bound or a thread not started.
    init(
        host: String, port: UInt16, name: String, fields: [HTTPHead.Field] = [], connections: Int = 1,
        kept: SimulatedHTTPConnections = .closedAfterEachAnswer,
        _ answer: @escaping @Sendable (SimulatedHTTPRequest) -> SimulatedHTTPAnswer
    ) throws {
        let listener: Socket
        do {
            listener = try Socket.listen(host: host, port: port)
        } catch {
            throw ViewfinderError(error)
        }
        var threads: [PlatformThread] = []
        let accepting = Locked(0)
        do {
            for _ in 0..<max(1, connections) {
                let serving = Serving(
                    listener: listener, accepting: accepting, fields: fields, kept: kept, answer: answer)
                threads.append(try PlatformThread(name: name) { serving.run() })
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

    /// Stops listening and waits for the threads to end.
    func stop() {
        listener.shutdown()
        for thread in threads { thread.join() }
        listener.close()
    }

    /// What one of the server's threads does: it takes the listener's connections one at a time and answers them.
    private struct Serving: Sendable {
        /// What became of a connection once it was served.
        enum Outcome {
            /// It is closed; the thread takes the next one.
            case closed
            /// It was dropped, idle, for this client's, which the thread serves next.
            case yielded(to: Socket)
            /// The server stopped.
            case stopped
        }

        let listener: Socket
        /// How many of the server's threads wait for a new connection: an idle connection is dropped for a new one
        /// only while none does.
        let accepting: Locked<Int>
        let fields: [HTTPHead.Field]
        let kept: SimulatedHTTPConnections
        let answer: @Sendable (SimulatedHTTPRequest) -> SimulatedHTTPAnswer

        /// Serves connections until stop() shuts the listener down, which ends accept with an error: a client may
        /// come after any pause, and a camera left waiting longer than accept's timeout still answers.
        func run() {
            while true {
                var next: Socket?
                accepting.withLock { $0 += 1 }
                do {
                    next = try listener.accept(timeout: .seconds(3600))
                    accepting.withLock { $0 -= 1 }
                } catch {
                    accepting.withLock { $0 -= 1 }
                    return
                }
                while let client = next {
                    let outcome = serve(client)
                    client.close()
                    switch outcome {
                    case .closed: next = nil
                    case .yielded(let newer): next = newer
                    case .stopped: return
                    }
                }
            }
        }

        /// Answers the requests on `client` until the connection is to close.
        private func serve(_ client: Socket) -> Outcome {
            var pending: [UInt8] = []
            // A client that connected as this connection's next request came: this one's last answer says close.
            var newer: Socket?
            let ended = { (newer: Socket?) -> Outcome in newer.map { .yielded(to: $0) } ?? .closed }
            while let request = SimulatedHTTPServer.read(from: client, pending: &pending) {
                let reply = answer(request)
                let keeps = newer == nil && keepsOpen(after: request, reply)
                let length: [HTTPHead.Field] =
                    reply.stream == nil ? [.init("Content-Length", String(reply.body.count))] : []
                // HTTP/1.1 keeps a connection unless a side says close.
                let connection: [HTTPHead.Field] = keeps ? [] : [.init("Connection", "close")]
                let head = HTTPHead(
                    startLine: "HTTP/1.1 \(reply.status)",
                    fields: fields + [.init("Content-Type", reply.contentType)] + length + connection)
                guard (try? client.send(head.encoded() + reply.body, timeout: .seconds(10), while: "answering")) != nil
                else { return ended(newer) }
                if let stream = reply.stream {
                    stream(client)
                    return ended(newer)
                }
                guard keeps, case .keptAlive(let idleTimeout) = kept else { return ended(newer) }
                guard pending.isEmpty else { continue }
                switch waitForRequest(on: client, idleTimeout: idleTimeout) {
                case .request:
                    continue
                case .requestBeforeYielding(let next):
                    newer = next
                case .ended(let outcome):
                    return outcome
                }
            }
            return ended(newer)
        }

        /// Whether the connection stays open after `reply` to `request`.
        private func keepsOpen(after request: SimulatedHTTPRequest, _ reply: SimulatedHTTPAnswer) -> Bool {
            guard case .keptAlive = kept, reply.stream == nil else { return false }
            return request.head.startLine.hasSuffix("HTTP/1.1")
                && request.head["connection"]?.lowercased().contains("close") != true
        }

        /// What came while a kept connection sat idle.
        private enum Wait {
            /// The client's next request.
            case request
            /// The client's next request, as another client connected, which the thread serves once it answered.
            case requestBeforeYielding(to: Socket)
            /// The connection is to close.
            case ended(Outcome)
        }

        /// Waits for the client's next request: `.request` once it comes; `.closed` when the connection sat idle for
        /// `idleTimeout` (the camera closes it without a word), `.yielded` to a client that connected meanwhile while
        /// no other thread was free to take it, or `.stopped` when the server stops.
        ///
        /// A request that arrives as the thread takes the other client is answered first, saying close: a
        /// connection closed with a request unread would be reset under a client sending it.
        private func waitForRequest(on client: Socket, idleTimeout: Duration) -> Wait {
            let deadline = ContinuousClock.now + idleTimeout
            while true {
                let ready: [Int16]
                do {
                    ready = try Poll.wait(
                        [.init(client.descriptor, for: Poll.readable), .init(listener.descriptor, for: Poll.readable)],
                        until: deadline)
                } catch {
                    return .ended(.stopped)
                }
                if ready[0] != 0 { return .request }
                if ready[1] == 0 { return .ended(.closed) }
                if accepting.withLock({ $0 }) > 0 {
                    // A thread without a connection takes the new client; this one goes on waiting on its own.
                    guard ContinuousClock.now < deadline else { return .ended(.closed) }
                    let moment = min(deadline, .now + .milliseconds(5))
                    guard let ready = try? Poll.wait([.init(client.descriptor, for: Poll.readable)], until: moment)
                    else { return .ended(.stopped) }
                    if ready[0] != 0 { return .request }
                    continue
                }
                let next: Socket?
                do {
                    next = try listener.acceptNow()
                } catch {
                    return .ended(.stopped)
                }
                // Another thread may have taken the client first: then this one waits on.
                guard let next else { continue }
                return client.isIdle ? .ended(.yielded(to: next)) : .requestBeforeYielding(to: next)
            }
        }
    }

    /// Reads one request, its body bounded to 64 KiB, within 10 seconds, starting with `pending` bytes received
    /// before; leaves in `pending` the bytes received after it.
    private static func read(from client: Socket, pending: inout [UInt8]) -> SimulatedHTTPRequest? {
        var received = pending
        pending = []
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
        var end = HTTPHead.end(in: received)
        while end == nil {
            guard received.count < 65536, receive() else { return nil }
            end = HTTPHead.end(in: received)
        }
        guard let end, let head = try? HTTPHead(parsing: received[..<end]) else { return nil }
        let peer = SocketAddress.filling { getpeername(client.descriptor, $0, &$1) }.1.host
        guard let lengthText = head["content-length"] else {
            pending = Array(received[end...])
            return SimulatedHTTPRequest(head: head, body: [], peer: peer)
        }
        guard let length = Int(lengthText), (0...65536).contains(length) else { return nil }
        while received.count - end < length {
            guard receive() else { return nil }
        }
        pending = Array(received[(end + length)...])
        return SimulatedHTTPRequest(head: head, body: Array(received[end..<(end + length)]), peer: peer)
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
