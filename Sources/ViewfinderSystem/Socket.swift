import CViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking socket that one thread owns for its I/O and any thread may shut down, to wake the owner.
///
/// Every wait on it is a `poll(2)` with a timeout; every call retries on `EINTR`; sends use `MSG_NOSIGNAL`, so a
/// closed peer is an error and never a `SIGPIPE`; every descriptor is made non-blocking and close-on-exec when it is
/// created (`SOCK_NONBLOCK | SOCK_CLOEXEC`, `accept4`).
///
/// The socket holds its ``FileDescriptor``: the owner closes it once with ``close()`` (or by letting go of the last
/// reference), while ``shutdown()`` from another thread reaches the descriptor only under the same lock, so it never
/// touches a number that was closed and reused. TCP lives in `Socket+TCP.swift`, UDP in `Socket+UDP.swift`.
package final class Socket: Sendable {
    /// The descriptor's number, for the owner's I/O while the socket is open.
    package let descriptor: CInt
    /// The peer's address, or the local one for a listening or datagram socket, for messages.
    package let endpoint: String
    private let owner: Locked<FileDescriptor?>

    /// Takes ownership of an open socket descriptor.
    package init(adopting descriptor: consuming FileDescriptor, endpoint: String) {
        self.descriptor = descriptor.rawValue
        self.endpoint = endpoint
        owner = Locked(descriptor)
    }

    /// Creates a socket of `family` and `type`, non-blocking and close-on-exec.
    package convenience init(family: CInt, type: __socket_type, endpoint: String) throws(SocketError) {
        let descriptor = try Self.makeDescriptor(
            family: family, type: type, while: "creating a socket", endpoint: endpoint)
        self.init(adopting: descriptor, endpoint: endpoint)
    }

    /// A new socket descriptor of `family` and `type`, non-blocking and close-on-exec.
    static func makeDescriptor(
        family: CInt, type: __socket_type, while activity: @autoclosure () -> String, endpoint: CustomStringConvertible
    ) throws(SocketError) -> FileDescriptor {
        let flags = CInt(type.rawValue) | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue)
        do {
            return FileDescriptor(unsafeAdopting: try valueOrErrno { Glibc.socket(family, flags, 0) }.get())
        } catch {
            throw SocketError(.system(error), while: activity(), endpoint: endpoint.description)
        }
    }

    /// Whether ``close()`` has run.
    package var isClosed: Bool { owner.withLock { $0 == nil } }

    /// Shuts both directions down, waking any thread that waits on the socket; the descriptor stays open.
    ///
    /// Safe from any thread, before or after the owner closed the socket.
    package func shutdown() {
        owner.withLock { descriptor in
            if let raw = descriptor?.rawValue { _ = Glibc.shutdown(raw, CInt(SHUT_RDWR)) }
        }
    }

    /// Shuts the sending direction down: the peer reads the end of the stream, and can still send.
    package func shutdownSending() {
        owner.withLock { descriptor in
            if let raw = descriptor?.rawValue { _ = Glibc.shutdown(raw, CInt(SHUT_WR)) }
        }
    }

    /// Closes the descriptor; later calls do nothing.
    package func close() {
        let descriptor = owner.withLock { $0.take() }
        try? descriptor?.close()
    }

    /// Waits until the socket is ready for `events` (``Poll/readable``, ``Poll/writable``) or `timeout` passes.
    ///
    /// - Throws: ``SocketError/Reason/timedOut(_:)`` when it is not ready in time.
    package func wait(for events: Int16, timeout: Duration, while activity: @autoclosure () -> String)
        throws(SocketError)
    {
        let ready: Int16
        do {
            ready = try Poll.wait(descriptor, for: events, until: .now + timeout)
        } catch {
            throw SocketError(.system(error), while: activity(), endpoint: endpoint)
        }
        guard ready != 0 else { throw SocketError(.timedOut(timeout), while: activity(), endpoint: endpoint) }
    }

    /// Sets an integer socket option, such as `SO_REUSEADDR` at `SOL_SOCKET`; failures are ignored, as options
    /// only tune the socket.
    package func setOption(_ option: CInt, level: CInt = SOL_SOCKET, to value: CInt) {
        var value = value
        _ = setsockopt(descriptor, level, option, &value, socklen_t(MemoryLayout<CInt>.size))
    }

    /// Sets a socket option whose value is a structure.
    package func setOption<Value>(_ option: CInt, level: CInt, toStructure value: Value) throws(SocketError) {
        let result = withUnsafeBytes(of: value) { raw in
            setsockopt(descriptor, level, option, raw.baseAddress, socklen_t(raw.count))
        }
        guard result == 0 else {
            throw SocketError(.system(.current), while: "setting socket option \(option)", endpoint: endpoint)
        }
    }

    /// The local address the socket is bound to.
    package var localAddress: SocketAddress {
        SocketAddress.filling { getsockname(descriptor, $0, &$1) }.1
    }

    /// The local port the socket is bound to.
    package var localPort: UInt16 { localAddress.port }

    /// Binds to `address`.
    package func bind(to address: SocketAddress) throws(SocketError) {
        let result = address.withSockAddr { Glibc.bind(descriptor, $0, $1) }
        guard result == 0 else {
            throw SocketError(.system(.current), while: "binding to \(address)", endpoint: address.description)
        }
    }

    /// Makes closing the socket reset the connection (`SO_LINGER` of zero), as a process that dies does when data is
    /// still unread: the peer's next call fails with a reset rather than reading an orderly end.
    package func resetOnClose() {
        try? setOption(SO_LINGER, level: SOL_SOCKET, toStructure: linger(l_onoff: 1, l_linger: 0))
    }
}
