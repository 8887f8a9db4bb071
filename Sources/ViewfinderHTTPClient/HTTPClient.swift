import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSystem

/// One HTTP/1.1 exchange with a camera's HTTP API: a request, then the answer's head and body, all within one deadline
/// and the body within a bound; blocking the calling thread.
///
/// ``exchange(_:body:host:port:deadline:maximumBodyLength:activity:connected:)`` opens a connection of its own and
/// reads until the answer is whole or the camera closes it; ``HTTPKeptConnection`` keeps one open between exchanges
/// with the same steps (``connect(host:port:deadline:activity:)``, ``send(_:body:on:deadline:activity:)``,
/// ``readBody(of:maximumBodyLength:deadline:activity:)``). The Lumix, Olympus and Sony drivers share them.
package enum HTTPClient {
    /// An answer: its status code, head and body.
    package struct Answer: Sendable {
        /// The status code, such as 200.
        package var status: Int
        /// The head.
        package var head: HTTPHead
        /// The body, whole.
        package var body: [UInt8]
    }

    /// The longest answer head read.
    package static let maximumHeadLength = 16 * 1024

    /// An answer whose head is read and whose body is still to come on its connection.
    package struct OpenAnswer: Sendable {
        /// The connection; the caller closes it.
        package var socket: Socket
        /// The status code, such as 200.
        package var status: Int
        /// The head.
        package var head: HTTPHead
        /// The body's bytes that came with the head.
        package var start: [UInt8]
    }

    /// An exchange on an open connection that failed, and whether the camera answered any of it.
    package struct Failure: Error {
        /// The error the caller is given.
        package var error: ViewfinderError
        /// Whether the camera closed or reset the connection before sending a byte of its answer, so that a request
        /// without side effects may go once more on a new connection.
        package var isUnanswered: Bool
    }

    /// Sends `request` (and `body`) to `host`:`port` on a connection of its own and reads the answer, all by
    /// `deadline`.
    ///
    /// `connected` is given the connection as soon as it is made, before the request goes out, so that another
    /// thread may shut it down to end the exchange at once (as ``HTTPExchangeCancellation`` does); what it throws
    /// ends the exchange.
    ///
    /// - Throws: ``ViewfinderError``: `connectionFailed` when the camera does not take the connection, `timeout`
    ///   when it does not answer whole by the deadline, `disconnected` when it closes the connection before the end,
    ///   `malformedData` for an answer that is not HTTP or longer than `maximumBodyLength`.
    package static func exchange(
        _ request: HTTPHead, body: [UInt8] = [], host: String, port: UInt16, deadline: ContinuousClock.Instant,
        maximumBodyLength: Int, activity: String, connected: (Socket) throws(ViewfinderError) -> Void = { _ in }
    ) throws(ViewfinderError) -> Answer {
        let answer = try open(
            request, body: body, host: host, port: port, deadline: deadline, activity: activity, connected: connected)
        defer { answer.socket.close() }
        return try readBody(of: answer, maximumBodyLength: maximumBodyLength, deadline: deadline, activity: activity)
            .answer
    }

    /// Sends `request` (and `body`) on a connection of its own and reads the answer's head, by `deadline`, leaving
    /// its body on the connection.
    ///
    /// `connected` is given the connection as soon as it is made, before the request goes out; what it throws ends
    /// the exchange.
    ///
    /// - Throws: What ``exchange(_:body:host:port:deadline:maximumBodyLength:activity:connected:)`` throws.
    package static func open(
        _ request: HTTPHead, body: [UInt8] = [], host: String, port: UInt16, deadline: ContinuousClock.Instant,
        activity: String, connected: (Socket) throws(ViewfinderError) -> Void = { _ in }
    ) throws(ViewfinderError) -> OpenAnswer {
        let socket = try connect(host: host, port: port, deadline: deadline, activity: activity)
        do throws(ViewfinderError) {
            try connected(socket)
            do throws(Failure) {
                return try send(request, body: body, on: socket, deadline: deadline, activity: activity)
            } catch {
                throw error.error
            }
        } catch {
            socket.close()
            throw error
        }
    }

    /// Opens a connection to `host`:`port` by `deadline`.
    ///
    /// - Throws: ``ViewfinderError``: `connectionFailed` when the camera does not take the connection, `timeout`
    ///   once the deadline has passed.
    package static func connect(
        host: String, port: UInt16, deadline: ContinuousClock.Instant, activity: String
    ) throws(ViewfinderError) -> Socket {
        do throws(SocketError) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else {
                throw SocketError(.timedOut(.zero), while: activity, endpoint: HostPort.text(host, port: port))
            }
            return try Socket.connect(host: host, port: port, timeout: left)
        } catch {
            throw ViewfinderError(error)
        }
    }

    /// Sends `request` (and `body`) on an open connection and reads the answer's head by `deadline`, leaving its
    /// body on the connection; the caller closes the connection when this throws.
    ///
    /// - Throws: ``Failure``, saying whether the camera closed or reset the connection before a byte of its answer.
    package static func send(
        _ request: HTTPHead, body: [UInt8], on socket: Socket, deadline: ContinuousClock.Instant, activity: String
    ) throws(Failure) -> OpenAnswer {
        let endpoint = socket.endpoint
        do throws(SocketError) {
            try socket.send(request.encoded() + body, until: deadline, while: activity)
        } catch {
            throw Failure(error: ViewfinderError(error), isUnanswered: isReset(error))
        }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var received: [UInt8] = []
        while true {
            let count: Int?
            do throws(SocketError) {
                count = try receiveOrClose(on: socket, into: &buffer, until: deadline, activity: activity)
            } catch {
                throw Failure(error: ViewfinderError(error), isUnanswered: received.isEmpty && isReset(error))
            }
            guard let count else {
                throw Failure(
                    error: ViewfinderError(.disconnected, "\(endpoint) closed the connection before answering"),
                    isUnanswered: received.isEmpty)
            }
            received += buffer[..<count]
            if let end = HTTPHead.end(in: received) {
                let head: HTTPHead
                do throws(ViewfinderError) {
                    head = try parsedHead(received[..<end], endpoint: endpoint)
                } catch {
                    throw Failure(error: error, isUnanswered: false)
                }
                let status = head.startWords.dropFirst().first.flatMap { Int($0) } ?? 0
                return OpenAnswer(socket: socket, status: status, head: head, start: Array(received[end...]))
            }
            guard received.count < maximumHeadLength else {
                throw Failure(
                    error: ViewfinderError(.malformedData, "\(endpoint) answered a head longer than 16 KiB"),
                    isUnanswered: false)
            }
        }
    }

    /// Reads the rest of `answer`'s body by `deadline`, at most `maximumBodyLength` bytes, and tells whether its
    /// connection may carry another exchange.
    ///
    /// A connection carries another exchange after an HTTP/1.1 answer that does not say `Connection: close`, whose
    /// body has a length or chunks and nothing after them. The caller closes the connection otherwise.
    ///
    /// - Throws: What ``exchange(_:body:host:port:deadline:maximumBodyLength:activity:connected:)`` throws.
    package static func readBody(
        of answer: OpenAnswer, maximumBodyLength: Int, deadline: ContinuousClock.Instant, activity: String
    ) throws(ViewfinderError) -> (answer: Answer, isReusable: Bool) {
        let endpoint = answer.socket.endpoint
        var reader: HTTPBodyReader
        do throws(HTTPBodyReader.Failure) {
            reader = try HTTPBodyReader(head: answer.head, maximumLength: maximumBodyLength)
        } catch {
            throw failure(error, endpoint: endpoint)
        }
        try take(answer.start[...], into: &reader, endpoint: endpoint)
        var closed = false
        if !reader.isComplete {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while !reader.isComplete {
                guard let count = try receive(on: answer.socket, into: &buffer, until: deadline, activity: activity)
                else {
                    try finish(&reader, endpoint: endpoint)
                    closed = true
                    break
                }
                try take(buffer[..<count], into: &reader, endpoint: endpoint)
            }
        }
        let keepsOpen =
            answer.head.startLine.hasPrefix("HTTP/1.1 ")
            && answer.head["connection"]?.lowercased().contains("close") != true
        let isReusable = keepsOpen && !closed && !reader.endsAtClose && reader.excess == 0
        return (Answer(status: answer.status, head: answer.head, body: reader.body), isReusable)
    }

    /// Receives what the peer sends next into `buffer`, waiting until `deadline`; `nil` once the peer closed.
    ///
    /// - Throws: ``ViewfinderError/Code/timeout`` when nothing comes by the deadline, or the connection's error.
    package static func receive(
        on socket: Socket, into buffer: inout [UInt8], until deadline: ContinuousClock.Instant, activity: String
    ) throws(ViewfinderError) -> Int? {
        do throws(SocketError) {
            return try receiveOrClose(on: socket, into: &buffer, until: deadline, activity: activity)
        } catch {
            throw ViewfinderError(error)
        }
    }

    /// Receives what the peer sends next into `buffer`, waiting until `deadline`; `nil` once the peer closed.
    private static func receiveOrClose(
        on socket: Socket, into buffer: inout [UInt8], until deadline: ContinuousClock.Instant, activity: String
    ) throws(SocketError) -> Int? {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { throw SocketError(.timedOut(.zero), while: activity, endpoint: socket.endpoint) }
        let outcome = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SocketError) in try socket.receive(into: raw, timeout: left, while: activity) }
        }
        switch outcome {
        case .success(let count):
            return count
        case .failure(let error) where error.reason == .closedByPeer:
            return nil
        case .failure(let error):
            throw error
        }
    }

    /// Whether a send failed because the peer had closed or reset the connection.
    private static func isReset(_ error: SocketError) -> Bool {
        switch error.reason {
        case .system(let errno): errno == .connectionReset || errno == .brokenPipe
        case .closedByPeer: true
        default: false
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
