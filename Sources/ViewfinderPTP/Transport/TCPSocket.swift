import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket in non-blocking mode whose every wait goes through `poll(2)` with a timeout.
///
/// Thin typed wrappers over `socket`, `connect`, `accept`, `send`, `sendmsg` and `recv`: every call retries on
/// `EINTR`, waits with `poll` on `EAGAIN`, and turns failures into `ViewfinderError`s that say what was being done.
/// Sends use `MSG_NOSIGNAL`, so a closed peer is an error and never a `SIGPIPE`.
///
/// A socket value is a descriptor; the owner closes it once with ``close()``. ``shutdown()`` may be called from any
/// thread to wake a thread that waits on the socket.
package struct TCPSocket: Sendable {
    /// The file descriptor.
    package let descriptor: Int32
    /// The peer or local address, for messages, such as `127.0.0.1:15740`.
    package let endpoint: String

    private init(descriptor: Int32, endpoint: String) {
        self.descriptor = descriptor
        self.endpoint = endpoint
    }

    /// Connects to `host` (a name or an address) on `port`, trying each address the name resolves to.
    ///
    /// - Throws: `ViewfinderError/Code/timeout` when no address answers within `timeout`, and
    ///   `ViewfinderError/Code/connectionFailed` (or a code from the system error) when the connection is refused
    ///   or the name does not resolve.
    package static func connect(host: String, port: UInt16, timeout: Duration) throws(ViewfinderError) -> TCPSocket {
        let endpoint = "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            throw ViewfinderError(.connectionFailed, "cannot resolve \(host): \(reason); check the camera's address")
        }
        defer { freeaddrinfo(list) }
        var lastError = ViewfinderError(.connectionFailed, "\(host) resolves to no usable address")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            do {
                return try connect(to: address.pointee, endpoint: endpoint, timeout: timeout)
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    private static func connect(to address: addrinfo, endpoint: String, timeout: Duration) throws(ViewfinderError)
        -> TCPSocket
    {
        let socket = try makeSocket(family: address.ai_family, endpoint: endpoint)
        var result: Int32
        repeat {
            result = Glibc.connect(socket.descriptor, address.ai_addr, address.ai_addrlen)
        } while result == -1 && errno == EINTR
        if result == -1 {
            let error = errno
            guard error == EINPROGRESS else {
                socket.close()
                throw ViewfinderError.system(errno: error, "connecting to \(endpoint)")
            }
            do {
                try socket.wait(for: Int16(POLLOUT), timeout: timeout, while: "connecting to \(endpoint)")
            } catch {
                socket.close()
                throw error
            }
            var pending: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket.descriptor, SOL_SOCKET, SO_ERROR, &pending, &length)
            if pending != 0 {
                socket.close()
                throw ViewfinderError.system(errno: pending, "connecting to \(endpoint)")
            }
        }
        return socket
    }

    /// Listens on `host` (an IPv4 or IPv6 address) and `port`; port 0 picks a free port.
    ///
    /// - Throws: a `ViewfinderError` from the system error, such as `ViewfinderError/Code/invalidArgument` for a
    ///   bad address or `ViewfinderError/Code/io` when the port is in use.
    package static func listen(host: String, port: UInt16, backlog: Int32 = 8) throws(ViewfinderError) -> TCPSocket {
        let endpoint = "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let address = list?.pointee else {
            let reason = String(cString: gai_strerror(status))
            throw ViewfinderError(.invalidArgument, "cannot listen on \(endpoint): \(reason); give a numeric address")
        }
        defer { freeaddrinfo(list) }
        let socket = try makeSocket(family: address.ai_family, endpoint: endpoint)
        var one: Int32 = 1
        setsockopt(socket.descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socket.descriptor, address.ai_addr, address.ai_addrlen) == 0 else {
            let error = errno
            socket.close()
            let failure = ViewfinderError.system(errno: error, "binding to \(endpoint)")
            let hint =
                switch error {
                case EADDRINUSE: "; another program uses the port: choose another one"
                case EADDRNOTAVAIL: "; the address is not one of this machine's"
                case EACCES: "; ports below 1024 need privileges: choose a higher one"
                default: ""
                }
            throw ViewfinderError(failure.code, failure.message + hint, errno: error)
        }
        guard Glibc.listen(socket.descriptor, backlog) == 0 else {
            let error = errno
            socket.close()
            throw ViewfinderError.system(errno: error, "listening on \(endpoint)")
        }
        return TCPSocket(descriptor: socket.descriptor, endpoint: "\(host):\(socket.localPort)")
    }

    /// A connected pair of local stream sockets (`socketpair(2)`), non-blocking and closed on exec, for harnesses
    /// that drive a PTP/IP connection from both ends without the network.
    package static func pair() throws(ViewfinderError) -> (TCPSocket, TCPSocket) {
        var descriptors: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &descriptors) == 0 else {
            throw ViewfinderError.system(errno: errno, "creating a socket pair")
        }
        return (
            TCPSocket(descriptor: descriptors[0], endpoint: "socket pair"),
            TCPSocket(descriptor: descriptors[1], endpoint: "socket pair")
        )
    }

    private static func makeSocket(family: Int32, endpoint: String) throws(ViewfinderError) -> TCPSocket {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = Glibc.socket(family, type, 0)
        guard descriptor >= 0 else {
            throw ViewfinderError.system(errno: errno, "creating a socket for \(endpoint)")
        }
        return TCPSocket(descriptor: descriptor, endpoint: endpoint)
    }

    /// Accepts a connection, waiting at most `timeout`.
    ///
    /// - Returns: The connection, or `nil` when none arrived in time.
    package func accept(timeout: Duration) throws(ViewfinderError) -> TCPSocket? {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let accepted = withUnsafeMutablePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.accept(descriptor, $0, &length)
                }
            }
            if accepted >= 0 {
                _ = fcntl(accepted, F_SETFL, fcntl(accepted, F_GETFL) | O_NONBLOCK)
                _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
                return TCPSocket(descriptor: accepted, endpoint: Self.describe(storage))
            }
            switch errno {
            case EINTR, ECONNABORTED:
                continue
            case EAGAIN, EWOULDBLOCK:
                do {
                    try wait(for: Int16(POLLIN), timeout: timeout, while: "accepting on \(endpoint)")
                } catch  where error.code == .timeout {
                    return nil
                }
            default:
                throw ViewfinderError.system(errno: errno, "accepting connections on \(endpoint)")
            }
        }
    }

    /// The local port the socket is bound to.
    package var localPort: UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Self.port(of: storage)
    }

    private static func port(of storage: sockaddr_storage) -> UInt16 {
        var storage = storage
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                UInt16(bigEndian: $0.pointee.sin_port)
            }
        }
    }

    private static func describe(_ storage: sockaddr_storage) -> String {
        var storage = storage
        let family = storage.ss_family
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        withUnsafePointer(to: &storage) { pointer in
            if family == sa_family_t(AF_INET6) {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var raw = address.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
                }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var raw = address.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
                }
            }
        }
        let address = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return "\(address):\(port(of: storage))"
    }

    /// Turns off Nagle's algorithm, so small packets leave at once.
    package func setNoDelay() {
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Acknowledges received data at once instead of delaying the acknowledgement; the kernel clears this after a
    /// while, so call it before each read that waits for a peer that does not turn off Nagle's algorithm.
    package func setQuickAck() {
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_QUICKACK, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Waits until the socket is ready for `events` or `timeout` passes.
    package func wait(for events: Int16, timeout: Duration, while activity: String) throws(ViewfinderError) {
        let deadline = ContinuousClock.now + timeout
        var descriptorSet = pollfd(fd: descriptor, events: events, revents: 0)
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            let milliseconds = max(0, Int32(clamping: remaining.milliseconds))
            let ready = poll(&descriptorSet, 1, milliseconds)
            if ready > 0 { return }
            if ready == 0 {
                guard milliseconds > 0 else {
                    throw ViewfinderError(
                        .timeout,
                        "no progress within \(timeout.seconds) s while \(activity); the peer stopped answering")
                }
                continue
            }
            guard errno == EINTR else {
                throw ViewfinderError.system(errno: errno, activity)
            }
        }
    }

    /// Sends all of `buffers` in order, gathering them into as few system calls as possible.
    ///
    /// - Throws: `ViewfinderError/Code/timeout` when the peer takes no data for `timeout`, and
    ///   `ViewfinderError/Code/disconnected` when it has gone.
    package func send(_ buffers: [UnsafeRawBufferPointer], timeout: Duration, while activity: String)
        throws(ViewfinderError)
    {
        var vectors = buffers.filter { $0.count > 0 }.map {
            iovec(iov_base: UnsafeMutableRawPointer(mutating: $0.baseAddress), iov_len: $0.count)
        }
        var first = 0
        while first < vectors.count {
            let sent = vectors.withUnsafeMutableBufferPointer { pointer -> Int in
                var message = msghdr()
                message.msg_iov = pointer.baseAddress! + first
                message.msg_iovlen = pointer.count - first
                return sendmsg(descriptor, &message, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                switch errno {
                case EINTR:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    try wait(for: Int16(POLLOUT), timeout: timeout, while: activity)
                    continue
                default:
                    throw ViewfinderError.system(errno: errno, activity)
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

    /// Receives at least one byte into `buffer`, waiting at most `timeout` for it.
    ///
    /// - Returns: The number of bytes received, from 1 to `buffer.count`.
    /// - Throws: `ViewfinderError/Code/disconnected` when the peer closed the connection,
    ///   `ViewfinderError/Code/timeout` when nothing arrived in time.
    package func receive(
        into buffer: UnsafeMutableRawBufferPointer, timeout: Duration, quickAck: Bool = false, while activity: String
    ) throws(ViewfinderError) -> Int {
        precondition(buffer.count > 0)
        while true {
            let received = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if received > 0 { return received }
            if received == 0 {
                throw ViewfinderError(.disconnected, "the peer at \(endpoint) closed the connection while \(activity)")
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                if quickAck { setQuickAck() }
                try wait(for: Int16(POLLIN), timeout: timeout, while: activity)
            default:
                throw ViewfinderError.system(errno: errno, activity)
            }
        }
    }

    /// Shuts both directions down, waking any thread that waits on the socket; the descriptor stays open.
    package func shutdown() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Makes closing the socket reset the connection (`SO_LINGER` of zero), as a process that dies does when data is
    /// still unread: the peer's next call fails with a reset rather than reading an orderly end.
    package func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// Shuts the sending direction down: the peer reads the end of the stream, and can still send.
    package func shutdownSending() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes the descriptor.
    package func close() {
        _ = Glibc.close(descriptor)
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded up.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }

    /// The duration in seconds, for messages.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
