import CViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension Socket {
    /// Connects to `host` (a name or an address) on `port`, trying each address the name resolves to.
    ///
    /// - Throws: ``SocketError/Reason/timedOut(_:)`` when no address answers within `timeout`,
    ///   ``SocketError/Reason/unresolvable(_:)`` when the name does not resolve, or the system's error, such as
    ///   `ECONNREFUSED`, from the last address tried.
    package static func connect(host: String, port: UInt16, timeout: Duration) throws(SocketError) -> Socket {
        let endpoint = HostPort.text(host, port: port)
        var lastError = SocketError(.unresolvable("no usable address"), while: "connecting", endpoint: endpoint)
        for address in try SocketAddress.resolve(host, port: port, type: SOCK_STREAM) {
            do {
                return try connect(to: address, endpoint: endpoint, timeout: timeout)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    private static func connect(to address: SocketAddress, endpoint: String, timeout: Duration) throws(SocketError)
        -> Socket
    {
        let socket = try Socket(family: address.family, type: SOCK_STREAM, endpoint: endpoint)
        let activity = "connecting to \(endpoint)"
        let result = valueOrErrno { address.withSockAddr { Glibc.connect(socket.descriptor, $0, $1) } }
        if case .failure(let error) = result {
            guard error.rawValue == EINPROGRESS else {
                socket.close()
                throw SocketError(.system(error), while: activity, endpoint: endpoint)
            }
            do {
                try socket.wait(for: Poll.writable, timeout: timeout, while: activity)
            } catch {
                socket.close()
                throw error
            }
            var pending: CInt = 0
            var length = socklen_t(MemoryLayout<CInt>.size)
            getsockopt(socket.descriptor, SOL_SOCKET, SO_ERROR, &pending, &length)
            if pending != 0 {
                socket.close()
                throw SocketError(.system(Errno(rawValue: pending)), while: activity, endpoint: endpoint)
            }
        }
        return socket
    }

    /// Listens on `host` (a numeric IPv4 or IPv6 address) and `port`; port 0 picks a free port.
    ///
    /// - Throws: ``SocketError/Reason/notNumeric`` for a name, or the system's error, such as `EADDRINUSE`.
    package static func listen(host: String, port: UInt16, backlog: CInt = 16) throws(SocketError) -> Socket {
        let socket = try bound(host: host, port: port, reusingAddress: true)
        try socket.listen(backlog: backlog)
        return socket
    }

    /// A stream socket bound to `host` (a numeric IPv4 or IPv6 address) and `port` that does not listen yet; port 0
    /// picks a free port.
    ///
    /// Bound without `reusingAddress`, the socket holds its port until it is closed: no other socket binds it, and no
    /// connection takes it as its own port, while connections to it are refused until ``listen(backlog:)``.
    ///
    /// - Throws: ``SocketError/Reason/notNumeric`` for a name, or the system's error, such as `EADDRINUSE`.
    package static func bound(host: String, port: UInt16, reusingAddress: Bool) throws(SocketError) -> Socket {
        var address = try SocketAddress(numeric: host, port: port)
        let activity = "binding to \(address)"
        let descriptor = try makeDescriptor(
            family: address.family, type: SOCK_STREAM, while: activity, endpoint: address)
        if reusingAddress {
            var one: CInt = 1
            setsockopt(descriptor.rawValue, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<CInt>.size))
        }
        guard address.withSockAddr({ Glibc.bind(descriptor.rawValue, $0, $1) }) == 0 else {
            throw SocketError(.system(.current), while: activity, endpoint: address.description)
        }
        address.port = SocketAddress.filling { getsockname(descriptor.rawValue, $0, &$1) }.1.port
        return Socket(adopting: descriptor, endpoint: address.description)
    }

    /// Starts listening for connections on a bound socket.
    ///
    /// - Throws: The system's error, such as `EADDRINUSE` when another socket listens on the port.
    package func listen(backlog: CInt = 16) throws(SocketError) {
        guard Glibc.listen(descriptor, backlog) == 0 else {
            throw SocketError(.system(.current), while: "listening on \(endpoint)", endpoint: endpoint)
        }
    }

    /// A connected pair of local stream sockets (`socketpair(2)`), for harnesses that drive a connection from both
    /// ends without the network.
    package static func pair() throws(SocketError) -> (Socket, Socket) {
        var descriptors: [CInt] = [-1, -1]
        let type = CInt(SOCK_STREAM.rawValue) | CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
            throw SocketError(.system(.current), while: "creating a socket pair", endpoint: "socket pair")
        }
        return (
            Socket(adopting: FileDescriptor(unsafeAdopting: descriptors[0]), endpoint: "socket pair"),
            Socket(adopting: FileDescriptor(unsafeAdopting: descriptors[1]), endpoint: "socket pair")
        )
    }

    /// Takes a waiting connection (`accept4(2)`), non-blocking and close-on-exec.
    ///
    /// - Returns: The connection, or `nil` when none is waiting.
    /// - Throws: The system's error, such as ``Errno/tooManyOpenFiles`` when the process has no descriptor left
    ///   for it; the connection then stays waiting.
    package func acceptNow() throws(SocketError) -> Socket? {
        while true {
            let flags = CInt(SOCK_NONBLOCK.rawValue) | CInt(SOCK_CLOEXEC.rawValue)
            let (accepted, peer) = SocketAddress.filling { viewfinder_accept4(descriptor, $0, &$1, flags) }
            if accepted >= 0 {
                return Socket(adopting: FileDescriptor(unsafeAdopting: accepted), endpoint: peer.description)
            }
            let error = Errno.current
            switch error.rawValue {
            case EINTR, ECONNABORTED: continue
            case EAGAIN: return nil
            default:
                throw SocketError(.system(error), while: "accepting connections on \(endpoint)", endpoint: endpoint)
            }
        }
    }

    /// Accepts a connection, waiting at most `timeout` for one.
    ///
    /// - Returns: The connection, or `nil` when none arrived in time.
    package func accept(timeout: Duration) throws(SocketError) -> Socket? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let socket = try acceptNow() { return socket }
            let ready: Int16
            do {
                ready = try Poll.wait(descriptor, for: Poll.readable, until: deadline)
            } catch {
                throw SocketError(.system(error), while: "accepting connections on \(endpoint)", endpoint: endpoint)
            }
            if ready == 0 { return nil }
        }
    }

    /// Turns off Nagle's algorithm, so small packets leave at once.
    package func setNoDelay() {
        setOption(TCP_NODELAY, level: CInt(IPPROTO_TCP), to: 1)
    }

    /// Acknowledges received data at once instead of delaying the acknowledgement; the kernel clears this after a
    /// while, so call it before each read that waits for a peer that does not turn off Nagle's algorithm.
    package func setQuickAck() {
        setOption(TCP_QUICKACK, level: CInt(IPPROTO_TCP), to: 1)
    }

    /// Sends all of `buffers` in order, gathering them into as few system calls as possible.
    ///
    /// - Parameters:
    ///   - buffers: The bytes to send.
    ///   - timeout: The longest the peer may take no data.
    ///   - more: Whether more data follows at once, so the kernel may hold this back to fill a packet (`MSG_MORE`).
    /// - Throws: ``SocketError/Reason/timedOut(_:)`` when the peer takes no data for `timeout`, or the system's
    ///   error, such as `EPIPE` or `ECONNRESET` when it has gone.
    package func send(
        _ buffers: [UnsafeRawBufferPointer], timeout: Duration, more: Bool = false,
        while activity: @autoclosure () -> String
    ) throws(SocketError) {
        try send(buffers, more: more, while: activity()) { timeout }
    }

    /// Sends all of `buffers` in order, as long as it takes until `deadline`, however steadily the peer takes them.
    ///
    /// - Throws: ``SocketError/Reason/timedOut(_:)`` when the bytes are not all sent by `deadline`.
    package func send(
        _ buffers: [UnsafeRawBufferPointer], until deadline: ContinuousClock.Instant, more: Bool = false,
        while activity: @autoclosure () -> String
    ) throws(SocketError) {
        try send(buffers, more: more, while: activity()) { ContinuousClock.now.duration(to: deadline) }
    }

    /// Sends all of `bytes`, with the peer taking no data for at most `timeout`.
    package func send(
        _ bytes: [UInt8], timeout: Duration, more: Bool = false, while activity: @autoclosure () -> String
    )
        throws(SocketError)
    {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SocketError) in try send([raw], timeout: timeout, more: more, while: activity()) }
        }.get()
    }

    /// Sends all of `bytes` by `deadline`.
    package func send(
        _ bytes: [UInt8], until deadline: ContinuousClock.Instant, more: Bool = false,
        while activity: @autoclosure () -> String
    ) throws(SocketError) {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SocketError) in try send([raw], until: deadline, more: more, while: activity()) }
        }.get()
    }

    /// Sends `buffers`, waiting for room at most `wait()` each time the socket's buffer is full.
    private func send(
        _ buffers: [UnsafeRawBufferPointer], more: Bool, while activity: @autoclosure () -> String, wait: () -> Duration
    ) throws(SocketError) {
        var vectors = buffers.filter { $0.count > 0 }.map {
            iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count)
        }
        let flags = CInt(MSG_NOSIGNAL) | (more ? CInt(MSG_MORE) : 0)
        var first = 0
        while first < vectors.count {
            let sent = vectors.withUnsafeMutableBufferPointer { pointer -> Int in
                var message = msghdr()
                message.msg_iov = pointer.baseAddress! + first
                message.msg_iovlen = pointer.count - first
                return sendmsg(descriptor, &message, flags)
            }
            if sent < 0 {
                let error = Errno.current
                switch error.rawValue {
                case EINTR: continue
                case EAGAIN:
                    try self.wait(for: Poll.writable, timeout: max(.zero, wait()), while: activity())
                    continue
                default:
                    throw SocketError(.system(error), while: activity(), endpoint: endpoint)
                }
            }
            var remaining = sent
            while first < vectors.count, remaining >= vectors[first].iov_len {
                remaining -= vectors[first].iov_len
                first += 1
            }
            if remaining > 0 {
                vectors[first].iov_base += remaining
                vectors[first].iov_len -= remaining
            }
        }
    }

    /// Receives what has arrived into `buffer` without waiting.
    ///
    /// - Returns: The number of bytes received; 0 when the peer closed its end; `nil` when nothing has arrived.
    package func receiveNow(into buffer: UnsafeMutableRawBufferPointer, while activity: @autoclosure () -> String)
        throws(SocketError)
        -> Int?
    {
        while true {
            let received = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if received >= 0 { return received }
            let error = Errno.current
            switch error.rawValue {
            case EINTR: continue
            case EAGAIN: return nil
            default: throw SocketError(.system(error), while: activity(), endpoint: endpoint)
            }
        }
    }

    /// Whether the connection is open with nothing waiting to be read, found without waiting: not once the peer
    /// closed or reset it, or sent bytes that nothing asked for.
    package var isIdle: Bool {
        var byte: UInt8 = 0
        while true {
            let received = recv(descriptor, &byte, 1, CInt(MSG_PEEK) | CInt(MSG_DONTWAIT))
            if received >= 0 { return false }
            switch Errno.current.rawValue {
            case EINTR: continue
            case EAGAIN: return true
            default: return false
            }
        }
    }

    /// Receives at least one byte into `buffer`, waiting at most `timeout` for it.
    ///
    /// - Parameter quickAck: Whether to acknowledge at once before each wait (``setQuickAck()``).
    /// - Returns: The number of bytes received, from 1 to `buffer.count`.
    /// - Throws: ``SocketError/Reason/closedByPeer`` when the peer closed the connection,
    ///   ``SocketError/Reason/timedOut(_:)`` when nothing arrived in time.
    package func receive(
        into buffer: UnsafeMutableRawBufferPointer, timeout: Duration, quickAck: Bool = false,
        while activity: @autoclosure () -> String
    ) throws(SocketError) -> Int {
        guard buffer.count > 0 else { return 0 }
        while true {
            switch try receiveNow(into: buffer, while: activity()) {
            case let count? where count > 0:
                return count
            case 0?:
                throw SocketError(.closedByPeer, while: activity(), endpoint: endpoint)
            default:
                if quickAck { setQuickAck() }
                try wait(for: Poll.readable, timeout: timeout, while: activity())
            }
        }
    }
}
