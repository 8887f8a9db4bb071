import ViewfinderCore
import ViewfinderHTTPMessage
import ViewfinderSystem

/// The HTTP/1.1 connection to a camera's API that a driver keeps open between its exchanges, so that a poll each
/// second does not open a new connection each time.
///
/// Cameras are sloppy about keeping connections, and every case works: an answer that says `Connection: close`, an
/// HTTP/1.0 answer, or a body that ends where the connection does, leaves nothing kept and the next exchange
/// connects anew; a kept connection the camera closed or reset while it sat idle is found so before the request goes
/// out (without waiting) and replaced; a request that finds the kept connection closed as it goes out, before a byte
/// of the answer, goes once more on a new connection when it has no side effects (`repeatable`), and never a third
/// time. Every exchange keeps its one deadline and bounds its answer as ``HTTPClient`` does.
///
/// Exchanges run one at a time, on the driver's connection thread:
///
/// ```swift
/// let connection = HTTPKeptConnection(host: "192.168.0.10", port: 80)
/// let answer = try connection.exchange(
///     request, deadline: .now + .seconds(5), maximumBodyLength: 1 << 20, activity: "reading the properties",
///     repeatable: true)
/// connection.close()  // when the driver's connection closes
/// ```
package final class HTTPKeptConnection: Sendable {
    private struct State {
        /// The connection kept between exchanges, while none runs.
        var idle: Socket?
        /// Whether ``close()`` was called: no connection is kept any more.
        var isClosed = false
    }

    /// The camera's host.
    package let host: String
    /// The camera's port.
    package let port: UInt16
    private let state = Locked(State())

    /// A connection to `host`:`port`, opened at the first exchange.
    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Sends `request` (and `body`) on the kept connection, or a new one when none is open, and reads the answer by
    /// `deadline`; keeps the connection for the next exchange when the answer lets it.
    ///
    /// - Parameter repeatable: Whether the request has no side effects, so that it may go once more, on a new
    ///   connection, when the kept one turns out closed before a byte of the answer.
    /// - Throws: What `HTTPClient.exchange` throws.
    package func exchange(
        _ request: HTTPHead, body: [UInt8] = [], deadline: ContinuousClock.Instant, maximumBodyLength: Int,
        activity: String, repeatable: Bool
    ) throws(ViewfinderError) -> HTTPClient.Answer {
        if let kept = takeIdle() {
            do throws(HTTPClient.Failure) {
                return try exchange(
                    request, body: body, on: kept, deadline: deadline, maximumBodyLength: maximumBodyLength,
                    activity: activity)
            } catch {
                // The camera closed the kept connection as the request went out; it may not have seen the request.
                guard error.isUnanswered, repeatable else { throw error.error }
            }
        }
        let socket = try HTTPClient.connect(host: host, port: port, deadline: deadline, activity: activity)
        do throws(HTTPClient.Failure) {
            return try exchange(
                request, body: body, on: socket, deadline: deadline, maximumBodyLength: maximumBodyLength,
                activity: activity)
        } catch {
            throw error.error
        }
    }

    /// Whether a connection is kept for the next exchange that the camera has neither closed nor sent anything on
    /// unasked, as the next exchange would find it.
    package var keepsAnOpenConnection: Bool {
        state.withLock { $0.idle?.isIdle ?? false }
    }

    /// Closes the kept connection; later exchanges still run, each on a connection of its own.
    package func close() {
        let idle = state.withLock { state in
            state.isClosed = true
            return state.idle.take()
        }
        idle?.close()
    }

    /// One exchange on `socket`, which is kept when the answer lets it and closed otherwise.
    private func exchange(
        _ request: HTTPHead, body: [UInt8], on socket: Socket, deadline: ContinuousClock.Instant,
        maximumBodyLength: Int, activity: String
    ) throws(HTTPClient.Failure) -> HTTPClient.Answer {
        let read: (answer: HTTPClient.Answer, isReusable: Bool)
        do throws(HTTPClient.Failure) {
            let open = try HTTPClient.send(request, body: body, on: socket, deadline: deadline, activity: activity)
            do throws(ViewfinderError) {
                read = try HTTPClient.readBody(
                    of: open, maximumBodyLength: maximumBodyLength, deadline: deadline, activity: activity)
            } catch {
                throw HTTPClient.Failure(error: error, isUnanswered: false)
            }
        } catch {
            socket.close()
            throw error
        }
        if read.isReusable {
            keep(socket)
        } else {
            socket.close()
        }
        return read.answer
    }

    /// The kept connection, when there is one that the camera has neither closed nor sent anything on unasked.
    private func takeIdle() -> Socket? {
        guard let socket = state.withLock({ $0.idle.take() }) else { return nil }
        guard socket.isIdle else {
            socket.close()
            return nil
        }
        return socket
    }

    /// Keeps `socket` for the next exchange, unless the connection was closed meanwhile.
    private func keep(_ socket: Socket) {
        let unkept = state.withLock { state -> Socket? in
            guard !state.isClosed else { return socket }
            defer { state.idle = socket }
            return state.idle
        }
        unkept?.close()
    }
}
