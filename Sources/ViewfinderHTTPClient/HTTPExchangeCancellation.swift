import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSystem

/// Ends an HTTP exchange under way from another thread: the connection it waits on is shut down, so the exchange
/// throws at once instead of at its deadline.
///
/// For an answer the camera holds back until something happens, such as a long poll, which a closing connection
/// must not wait for.
///
/// ```swift
/// let cancellation = HTTPExchangeCancellation()
/// // on the connection's thread:
/// let answer = try cancellation.exchange(request, body: body, host: host, port: port, deadline: deadline,
///                                        maximumBodyLength: 1 << 20, activity: "waiting for an event")
/// // on another, when the connection closes:
/// cancellation.cancel()
/// ```
package final class HTTPExchangeCancellation: Sendable {
    private struct State {
        var socket: Socket?
        var cancelled = false
    }

    private let state = Locked(State())

    /// A cancellation that has not been used.
    package init() {}

    /// Whether ``cancel()`` was called.
    package var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Ends the exchange under way, and every later one, with `ViewfinderError/Code/notConnected`.
    package func cancel() {
        let socket = state.withLock { state in
            state.cancelled = true
            return state.socket
        }
        socket?.shutdown()
    }

    /// Sends `request` (and `body`) to `host`:`port` and reads the whole answer by `deadline`, as
    /// `HTTPClient.exchange` does, unless ``cancel()`` ends it first.
    ///
    /// - Throws: What `HTTPClient.exchange` throws, and `ViewfinderError/Code/notConnected` once cancelled.
    package func exchange(
        _ request: HTTPHead, body: [UInt8] = [], host: String, port: UInt16, deadline: ContinuousClock.Instant,
        maximumBodyLength: Int, activity: String
    ) throws(ViewfinderError) -> HTTPClient.Answer {
        let endpoint = HostPort.text(host, port: port)
        let cancelled = ViewfinderError(.notConnected, "the exchange with \(endpoint) was cancelled")
        let socket: Socket
        do throws(SocketError) {
            socket = try Socket.connect(
                host: host, port: port, timeout: max(ContinuousClock.now.duration(to: deadline), .zero))
        } catch {
            throw ViewfinderError(error)
        }
        defer {
            state.withLock { $0.socket = nil }
            socket.close()
        }
        guard
            state.withLock({ state in
                state.socket = socket
                return !state.cancelled
            })
        else { throw cancelled }
        do {
            try socket.send(request.encoded() + body, until: deadline, while: activity)
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var head: HTTPHead?
            var reader: HTTPBodyReader?
            while true {
                guard let count = try HTTPClient.receive(on: socket, into: &buffer, until: deadline, activity: activity)
                else {
                    guard var whole = reader, let head else {
                        throw ViewfinderError(.disconnected, "\(endpoint) closed the connection before answering")
                    }
                    try whole.finishAtClose()
                    return HTTPClient.Answer(status: Self.status(of: head), head: head, body: whole.body)
                }
                if reader == nil {
                    received += buffer[..<count]
                    guard let end = HTTPHead.end(in: received) else {
                        guard received.count < HTTPClient.maximumHeadLength else {
                            throw ViewfinderError(.malformedData, "\(endpoint) answered a head longer than 16 KiB")
                        }
                        continue
                    }
                    guard let parsed = try? HTTPHead(parsing: received[..<end]), parsed.startLine.hasPrefix("HTTP/1.")
                    else {
                        throw ViewfinderError(.malformedData, "\(endpoint) answered something that is not HTTP/1.1")
                    }
                    head = parsed
                    reader = try HTTPBodyReader(head: parsed, maximumLength: maximumBodyLength)
                    try reader?.take(received[end...])
                } else {
                    try reader?.take(buffer[..<count])
                }
                if let whole = reader, whole.isComplete, let head {
                    return HTTPClient.Answer(status: Self.status(of: head), head: head, body: whole.body)
                }
            }
        } catch let error as ViewfinderError {
            throw isCancelled ? cancelled : error
        } catch let error as SocketError {
            throw isCancelled ? cancelled : ViewfinderError(error)
        } catch let error as HTTPBodyReader.Failure {
            switch error {
            case .tooLong(let bound):
                throw ViewfinderError(.malformedData, "\(endpoint) answered a body longer than the \(bound) bytes read")
            case .malformedChunk:
                throw ViewfinderError(.malformedData, "\(endpoint) answered chunks that are not well formed")
            case .truncated:
                throw ViewfinderError(.disconnected, "\(endpoint) closed the connection before its answer was whole")
            }
        } catch {
            throw ViewfinderError(.io, "the exchange with \(endpoint) failed: \(error)")
        }
    }

    private static func status(of head: HTTPHead) -> Int {
        head.startWords.dropFirst().first.flatMap { Int($0) } ?? 0
    }
}
