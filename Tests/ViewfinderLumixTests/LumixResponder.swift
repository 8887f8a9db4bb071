import ViewfinderHTTPMessage
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A Lumix on loopback HTTP for the tests: each `cam.cgi` request is answered by a closure, one connection at a time
/// on a thread of its own, and every request's query is recorded.
final class LumixResponder: Sendable {
    /// How a request is answered.
    enum Answer: Sendable {
        /// A 200 with this body and its length.
        case body([UInt8])
        /// These bytes as they are, head included.
        case raw([UInt8])
        /// A chunked 200 whose chunks of 1 KiB never end, one every so many milliseconds, until the client goes.
        case endlessChunks(intervalMilliseconds: Int)
    }

    let port: UInt16
    private let listener: Socket
    private let thread: PlatformThread
    private let log: Locked<[String]>

    /// Starts answering each request's query (`mode=getstate`) with `answer`.
    init(answer: @escaping @Sendable (String) -> Answer) throws {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        let log = Locked<[String]>([])
        self.listener = listener
        self.log = log
        port = listener.localPort
        thread = try PlatformThread(name: "test-lumix") {
            while let client = try? listener.accept(timeout: .seconds(60)) {
                defer { client.close() }
                guard let query = Self.readQuery(from: client) else { continue }
                log.withLock { $0.append(query) }
                Self.send(answer(query), to: client)
            }
        }
    }

    /// The queries received so far, in order.
    var queries: [String] { log.withLock { $0 } }

    /// Stops answering: the camera is gone.
    func close() {
        listener.shutdown()
        thread.join()
        listener.close()
    }

    /// The query of a request's target, `/cam.cgi?QUERY`.
    private static func readQuery(from client: Socket) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while HTTPHead.end(in: received) == nil, received.count < 65536 {
            let count = buffer.withUnsafeMutableBytes { raw in
                (try? client.receive(into: raw, timeout: .seconds(5), while: "reading a request")) ?? 0
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
                "HTTP/1.1 200 OK\r\nServer: Panasonic\r\nContent-Type: text/xml\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            try? client.send(Array(head.utf8) + body, timeout: .seconds(5), while: "answering")
        case .raw(let bytes):
            try? client.send(bytes, timeout: .seconds(5), while: "answering")
        case .endlessChunks(let intervalMilliseconds):
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nTransfer-Encoding: chunked\r\n\r\n"
            guard (try? client.send(Array(head.utf8), timeout: .seconds(5), while: "answering")) != nil else { return }
            let chunk = Array("400\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 1024) + Array("\r\n".utf8)
            while (try? client.send(chunk, timeout: .seconds(5), while: "sending chunks")) != nil {
                usleep(UInt32(intervalMilliseconds) * 1000)
            }
        }
    }
}
