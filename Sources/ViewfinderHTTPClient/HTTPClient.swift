import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSystem

/// One HTTP/1.1 exchange with a camera's HTTP API: a request, then the answer's head and body, all within one deadline
/// and the body within a bound; blocking the calling thread.
///
/// Each exchange opens a connection of its own and reads until the answer is whole or the camera closes it, as the
/// makers' own apps do. The Lumix and Olympus drivers share it.
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

    /// Sends `request` (and `body`) to `host`:`port` and reads the answer, all by `deadline`.
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
        let endpoint = HostPort.text(host, port: port)
        let answer = try open(
            request, body: body, host: host, port: port, deadline: deadline, activity: activity, connected: connected)
        defer { answer.socket.close() }
        var reader: HTTPBodyReader
        do throws(HTTPBodyReader.Failure) {
            reader = try HTTPBodyReader(head: answer.head, maximumLength: maximumBodyLength)
        } catch {
            throw failure(error, endpoint: endpoint)
        }
        try take(answer.start[...], into: &reader, endpoint: endpoint)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while !reader.isComplete {
            guard let count = try receive(on: answer.socket, into: &buffer, until: deadline, activity: activity) else {
                try finish(&reader, endpoint: endpoint)
                break
            }
            try take(buffer[..<count], into: &reader, endpoint: endpoint)
        }
        return Answer(status: answer.status, head: answer.head, body: reader.body)
    }

    /// Sends `request` (and `body`) and reads the answer's head, by `deadline`, leaving its body on the connection.
    ///
    /// `connected` is given the connection as soon as it is made, before the request goes out; what it throws ends
    /// the exchange.
    ///
    /// - Throws: What ``exchange(_:body:host:port:deadline:maximumBodyLength:activity:connected:)`` throws.
    package static func open(
        _ request: HTTPHead, body: [UInt8] = [], host: String, port: UInt16, deadline: ContinuousClock.Instant,
        activity: String, connected: (Socket) throws(ViewfinderError) -> Void = { _ in }
    ) throws(ViewfinderError) -> OpenAnswer {
        let endpoint = HostPort.text(host, port: port)
        let socket: Socket
        do throws(SocketError) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw SocketError(.timedOut(.zero), while: activity, endpoint: endpoint) }
            socket = try Socket.connect(host: host, port: port, timeout: left)
        } catch {
            throw ViewfinderError(error)
        }
        do throws(ViewfinderError) {
            try connected(socket)
            do throws(SocketError) {
                try socket.send(request.encoded() + body, until: deadline, while: activity)
            } catch {
                throw ViewfinderError(error)
            }
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            var received: [UInt8] = []
            while true {
                guard let count = try receive(on: socket, into: &buffer, until: deadline, activity: activity) else {
                    throw ViewfinderError(.disconnected, "\(endpoint) closed the connection before answering")
                }
                received += buffer[..<count]
                if let end = HTTPHead.end(in: received) {
                    let head = try parsedHead(received[..<end], endpoint: endpoint)
                    let status = head.startWords.dropFirst().first.flatMap { Int($0) } ?? 0
                    return OpenAnswer(socket: socket, status: status, head: head, start: Array(received[end...]))
                }
                guard received.count < maximumHeadLength else {
                    throw ViewfinderError(.malformedData, "\(endpoint) answered a head longer than 16 KiB")
                }
            }
        } catch {
            socket.close()
            throw error
        }
    }

    /// Receives what the peer sends next into `buffer`, waiting until `deadline`; `nil` once the peer closed.
    ///
    /// - Throws: ``ViewfinderError/Code/timeout`` when nothing comes by the deadline, or the connection's error.
    package static func receive(
        on socket: Socket, into buffer: inout [UInt8], until deadline: ContinuousClock.Instant, activity: String
    ) throws(ViewfinderError) -> Int? {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else {
            throw ViewfinderError(SocketError(.timedOut(.zero), while: activity, endpoint: socket.endpoint))
        }
        let outcome = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SocketError) in try socket.receive(into: raw, timeout: left, while: activity) }
        }
        switch outcome {
        case .success(let count):
            return count
        case .failure(let error) where error.reason == .closedByPeer:
            return nil
        case .failure(let error):
            throw ViewfinderError(error)
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
