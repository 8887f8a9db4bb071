/// A socket operation that failed: what was being done, with whom, and why.
///
/// The layers above turn it into the error their callers see; ViewfinderCore's `ViewfinderError(_:)` chooses a code
/// from the reason (a timeout, a peer that went away, an address that does not resolve, or the system's `errno`).
package struct SocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why an operation failed.
    package enum Reason: Hashable, Sendable {
        /// A system call failed with this error number.
        case system(Errno)
        /// The peer made no progress for this long.
        case timedOut(Duration)
        /// The peer closed the connection.
        case closedByPeer
        /// The host name does not resolve; `getaddrinfo(3)`'s message says why.
        case unresolvable(String)
        /// The text is not a numeric IPv4 or IPv6 address, where one is needed.
        case notNumeric
    }

    /// Why it failed.
    package var reason: Reason
    /// What was being done, such as `connecting to 192.168.1.1:15740`.
    package var activity: String
    /// The address of the socket's peer, or the local address for a listening socket.
    package var endpoint: String

    /// Describes a failure.
    package init(_ reason: Reason, while activity: String, endpoint: String) {
        self.reason = reason
        self.activity = activity
        self.endpoint = endpoint
    }

    /// A sentence for people.
    package var description: String {
        switch reason {
        case .system(let errno): "\(activity) failed: \(errno)"
        case .timedOut(let timeout): "no progress within \(timeout.inSeconds) s while \(activity)"
        case .closedByPeer: "the peer at \(endpoint) closed the connection while \(activity)"
        case .unresolvable(let message): "cannot resolve \(endpoint): \(message)"
        case .notNumeric: "'\(endpoint)' is not a numeric IPv4 or IPv6 address"
        }
    }
}
