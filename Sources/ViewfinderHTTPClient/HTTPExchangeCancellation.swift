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
        let cancelled = ViewfinderError(
            .notConnected, "the exchange with \(HostPort.text(host, port: port)) was cancelled")
        defer { state.withLock { $0.socket = nil } }
        do throws(ViewfinderError) {
            return try HTTPClient.exchange(
                request, body: body, host: host, port: port, deadline: deadline, maximumBodyLength: maximumBodyLength,
                activity: activity
            ) { socket throws(ViewfinderError) in
                guard
                    state.withLock({ state in
                        state.socket = socket
                        return !state.cancelled
                    })
                else { throw cancelled }
            }
        } catch {
            // A cancellation shows as whatever the shut-down connection made of it: a reset, an early close.
            throw isCancelled ? cancelled : error
        }
    }
}
