import ViewfinderHTTPMessage
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A camera's HTTP API on loopback for the tests: each request is answered by a closure given its query (`mode=getstate`
/// of `/cam.cgi?mode=getstate`) or, without one, its target (`/get_connectmode.cgi`), each connection on a thread of
/// its own, and every request's query is recorded.
///
/// An answer closes the connection, or keeps it open for the client's next request (``Answer/keptOpen(_:)``,
/// ``Answer/rawKeptOpen(_:)``), as the test scripts a camera.
///
/// It answers until ``close()``, however long the test takes to send its first request: the test runs on Swift's few
/// cooperative threads, which a busy machine can keep from it for minutes. A connection that sends no request, such
/// as a stranger's to the ephemeral port, holds up only its own thread.
public final class ScriptedHTTPResponder: Sendable {
    /// How a request is answered.
    public enum Answer: Sendable {
        /// A 200 with this body and its length.
        case body([UInt8])
        /// These bytes as they are, head included.
        case raw([UInt8])
        /// A chunked 200 whose chunks of 1 KiB never end, one every so many milliseconds, until the client goes.
        case endlessChunks(intervalMilliseconds: Int)
        /// A 200 with this body and its length, the connection left open for the client's next request.
        case keptOpen([UInt8])
        /// These bytes as they are, head included, the connection left open for the client's next request.
        case rawKeptOpen([UInt8])
        /// No answer: the connection closes as the request arrives, as a camera's that closed it while it was idle.
        case closedUnanswered
        /// No answer, the connection held open until the client goes: a camera that hangs.
        case silence

        /// Whether the connection stays open for another request after the answer.
        var keepsOpen: Bool {
            switch self {
            case .keptOpen, .rawKeptOpen: true
            default: false
            }
        }
    }

    /// The connections being answered, by number.
    private struct Connections {
        var open: [Int: Socket] = [:]
        var count = 0
    }

    /// How long a connection may take to send its request or take the answer: a hang, not a slow machine.
    static let patience = Duration.seconds(60)

    /// The port it answers on, on 127.0.0.1.
    public let port: UInt16
    private let listener: Socket
    private let thread: PlatformThread
    private let log: Locked<[String]>
    private let connections: Locked<Connections>
    /// Woken each time a connection's thread is done.
    private let connectionEnded: ThreadParker

    /// Starts answering each request's query (`mode=getstate`), or its target when it has none, with `answer`.
    public init(answer: @escaping @Sendable (String) -> Answer) throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let log = Locked<[String]>([])
        let connections = Locked(Connections())
        let connectionEnded = ThreadParker()
        self.listener = listener
        self.log = log
        self.connections = connections
        self.connectionEnded = connectionEnded
        port = listener.localPort
        thread = try PlatformThread(name: "test-http") {
            while true {
                let client: Socket
                do {
                    guard let accepted = try listener.accept(timeout: .seconds(3600)) else { continue }
                    client = accepted
                } catch {
                    return  // close() shut the listener down
                }
                let number = connections.withLock { connections in
                    connections.count += 1
                    connections.open[connections.count] = client
                    return connections.count
                }
                let serve: @Sendable () -> Void = {
                    var received: [UInt8] = []
                    while let query = Self.readQuery(from: client, received: &received) {
                        log.withLock { $0.append(query) }
                        let reply = answer(query)
                        Self.send(reply, to: client)
                        guard reply.keepsOpen else { break }
                    }
                    client.close()
                    connections.withLock { _ = $0.open.removeValue(forKey: number) }
                    connectionEnded.unpark()
                }
                do {
                    try PlatformThread.detach(name: "test-http-answer", serve)
                } catch {
                    serve()
                }
            }
        }
    }

    /// The queries received so far, in order.
    public var queries: [String] { log.withLock { $0 } }

    /// How many connections were taken so far.
    public var connectionCount: Int { connections.withLock { $0.count } }

    /// How many connections are open now.
    public var openConnectionCount: Int { connections.withLock { $0.open.count } }

    /// Stops answering: the camera is gone.
    ///
    /// Blocks until every connection's thread is done.
    public func close() {
        listener.shutdown()
        thread.join()
        listener.close()
        for client in connections.withLock({ Array($0.open.values) }) { client.shutdown() }
        while !connections.withLock({ $0.open.isEmpty }) { connectionEnded.park() }
    }

    /// The query of a request's target, `/cam.cgi?QUERY`, or the target without a query; its body, by its
    /// `Content-Length`, is read and dropped, and the bytes after it stay in `received` for the next request.
    private static func readQuery(from client: Socket, received: inout [UInt8]) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        func receive() -> Bool {
            let count = buffer.withUnsafeMutableBytes { raw in
                (try? client.receive(into: raw, timeout: patience, while: "reading a request")) ?? 0
            }
            received += buffer[..<count]
            return count > 0
        }
        var end = HTTPHead.end(in: received)
        while end == nil, received.count < 65536 {
            guard receive() else { return nil }
            end = HTTPHead.end(in: received)
        }
        guard let end, let head = try? HTTPHead(parsing: received[..<end]), head.startWords.count >= 2 else {
            return nil
        }
        let length = min(head["content-length"].flatMap { Int($0) } ?? 0, 65536)
        while received.count - end < length {
            guard receive() else { return nil }
        }
        received.removeFirst(end + length)
        let target = head.startWords[1]
        return target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } ?? String(target)
    }

    private static func send(_ answer: Answer, to client: Socket) {
        switch answer {
        case .body(let body):
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            try? client.send(Array(head.utf8) + body, timeout: patience, while: "answering")
        case .raw(let bytes), .rawKeptOpen(let bytes):
            try? client.send(bytes, timeout: patience, while: "answering")
        case .keptOpen(let body):
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: \(body.count)\r\n\r\n"
            try? client.send(Array(head.utf8) + body, timeout: patience, while: "answering")
        case .closedUnanswered:
            break
        case .silence:
            var byte: UInt8 = 0
            _ = withUnsafeMutableBytes(of: &byte) { raw in
                try? client.receive(into: raw, timeout: patience, while: "waiting for the client to go")
            }
        case .endlessChunks(let intervalMilliseconds):
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\n\r\n"
            guard (try? client.send(Array(head.utf8), timeout: patience, while: "answering")) != nil else { return }
            let chunk = Array("400\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 1024) + Array("\r\n".utf8)
            while (try? client.send(chunk, timeout: patience, while: "sending chunks")) != nil {
                usleep(UInt32(intervalMilliseconds) * 1000)
            }
        }
    }
}
