import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSystem

/// One HTTP/1.1 exchange with a Lumix: a request, then the answer's head and body, all within one deadline and the
/// body within a bound; blocking the calling thread.
///
/// Each exchange opens a connection of its own and asks the camera to close it, as Panasonic's own app does.
enum LumixHTTPClient {
    /// An answer: its status code, head and body.
    struct Answer: Sendable {
        /// The status code, such as 200.
        var status: Int
        /// The head.
        var head: HTTPHead
        /// The body, whole.
        var body: [UInt8]
    }

    /// The longest answer head read.
    static let maximumHeadLength = 16 * 1024

    /// Sends `request` (and `body`) to `host`:`port` and reads the answer, all by `deadline`.
    ///
    /// - Throws: `ViewfinderError`: `connectionFailed` when the camera does not take the connection, `timeout`
    ///   when it does not answer whole by the deadline, `disconnected` when it closes the connection before the end,
    ///   `malformedData` for an answer that is not HTTP or longer than `maximumBodyLength`.
    static func exchange(
        _ request: HTTPHead, body: [UInt8] = [], host: String, port: UInt16, deadline: ContinuousClock.Instant,
        maximumBodyLength: Int, activity: String
    ) throws(ViewfinderError) -> Answer {
        let endpoint = HostPort.text(host, port: port)
        func remaining() throws(SocketError) -> Duration {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                throw SocketError(.timedOut(.zero), while: activity, endpoint: endpoint)
            }
            return left
        }
        do {
            let socket = try Socket.connect(host: host, port: port, timeout: try remaining())
            defer { socket.close() }
            try socket.send(request.encoded() + body, until: deadline, while: activity)
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var received: [UInt8] = []
            var reader: HTTPBodyReader?
            var answerHead: HTTPHead?
            while reader?.isComplete != true {
                let timeout = try remaining()
                let outcome = buffer.withUnsafeMutableBytes { raw in
                    Result { () throws(SocketError) in try socket.receive(into: raw, timeout: timeout, while: activity)
                    }
                }
                let count: Int
                switch outcome {
                case .success(let received):
                    count = received
                case .failure(let error) where error.reason == .closedByPeer:
                    guard var ending = reader else {
                        throw ViewfinderError(.disconnected, "\(endpoint) closed the connection before answering")
                    }
                    try finish(&ending, endpoint: endpoint)
                    reader = ending
                    continue
                case .failure(let error):
                    throw error
                }
                if var body = reader {
                    try take(buffer[..<count], into: &body, endpoint: endpoint)
                    reader = body
                    continue
                }
                received += buffer[..<count]
                guard let end = HTTPHead.end(in: received) else {
                    guard received.count < maximumHeadLength else {
                        throw ViewfinderError(.malformedData, "\(endpoint) answered a head longer than 16 KiB")
                    }
                    continue
                }
                let head = try parsedHead(received[..<end], endpoint: endpoint)
                var body: HTTPBodyReader
                do throws(HTTPBodyReader.Failure) {
                    body = try HTTPBodyReader(head: head, maximumLength: maximumBodyLength)
                } catch {
                    throw failure(error, endpoint: endpoint)
                }
                try take(received[end...], into: &body, endpoint: endpoint)
                answerHead = head
                reader = body
            }
            guard let answerHead, let reader else {
                throw ViewfinderError(.disconnected, "\(endpoint) closed the connection before answering")
            }
            let status = answerHead.startWords.dropFirst().first.flatMap { Int($0) } ?? 0
            return Answer(status: status, head: answerHead, body: reader.body)
        } catch let error as ViewfinderError {
            throw error
        } catch let error as SocketError {
            throw ViewfinderError(error)
        } catch {
            throw ViewfinderError(.io, "\(activity) failed: \(error)")
        }
    }

    private static func parsedHead(_ bytes: ArraySlice<UInt8>, endpoint: String) throws(ViewfinderError) -> HTTPHead {
        guard let head = try? HTTPHead(parsing: bytes), head.startLine.hasPrefix("HTTP/1.") else {
            throw ViewfinderError(.malformedData, "\(endpoint) answered something that is not HTTP/1.1")
        }
        return head
    }

    private static func take(
        _ bytes: ArraySlice<UInt8>, into reader: inout HTTPBodyReader, endpoint: String
    ) throws(ViewfinderError) {
        do throws(HTTPBodyReader.Failure) {
            try reader.take(bytes)
        } catch {
            throw failure(error, endpoint: endpoint)
        }
    }

    private static func finish(_ reader: inout HTTPBodyReader, endpoint: String) throws(ViewfinderError) {
        do throws(HTTPBodyReader.Failure) {
            try reader.finishAtClose()
        } catch {
            throw failure(error, endpoint: endpoint)
        }
    }

    private static func failure(_ failure: HTTPBodyReader.Failure, endpoint: String) -> ViewfinderError {
        switch failure {
        case .tooLong(let bound):
            return ViewfinderError(.malformedData, "\(endpoint) answered a body longer than the \(bound) bytes read")
        case .malformedChunk:
            return ViewfinderError(.malformedData, "\(endpoint) answered chunks that are not well formed")
        case .truncated:
            return ViewfinderError(.disconnected, "\(endpoint) closed the connection before its answer was whole")
        }
    }
}
