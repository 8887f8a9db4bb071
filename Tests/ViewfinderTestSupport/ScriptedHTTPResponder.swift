import ViewfinderHTTPMessage
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A camera's HTTP API on loopback for the tests: each request is answered by a closure given its query (`mode=getstate`
/// of `/cam.cgi?mode=getstate`) or, without one, its target (`/get_connectmode.cgi`), each connection on a thread of
/// its own, and every request's query is recorded.
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
                    if let query = Self.readQuery(from: client) {
                        log.withLock { $0.append(query) }
                        Self.send(answer(query), to: client)
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

    /// The query of a request's target, `/cam.cgi?QUERY`, or the target without a query.
    private static func readQuery(from client: Socket) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while HTTPHead.end(in: received) == nil, received.count < 65536 {
            let count = buffer.withUnsafeMutableBytes { raw in
                (try? client.receive(into: raw, timeout: patience, while: "reading a request")) ?? 0
            }
            guard count > 0 else { return nil }
            received += buffer[..<count]
        }
        guard let head = try? HTTPHead(parsing: received), head.startWords.count >= 2 else { return nil }
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
        case .raw(let bytes):
            try? client.send(bytes, timeout: patience, while: "answering")
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
