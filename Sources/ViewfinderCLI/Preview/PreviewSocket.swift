import Viewfinder

#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket of the preview server in non-blocking mode, so that every wait on it is a `poll(2)` with a deadline.
///
/// A socket value is a descriptor: its owner closes it once with ``close()``. ``shutdown()`` may be called from any
/// thread while the owner still holds it, to end the owner's waits.
struct PreviewSocket: Sendable {
    /// The file descriptor.
    let descriptor: Int32

    /// Listens on a numeric IPv4 or IPv6 address; port 0 lets the system pick a free port.
    ///
    /// - Throws: A `ViewfinderError` that says why, with what to try for a port in use or a foreign address.
    static func listen(address: String, port: UInt16) throws(ViewfinderError) -> PreviewSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(address, String(port), &hints, &list) == 0, let entry = list?.pointee else {
            throw ViewfinderError(.invalidArgument, "'\(address)' is not a numeric IPv4 or IPv6 address")
        }
        defer { freeaddrinfo(list) }
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(entry.ai_family, flags, 0)
        guard descriptor >= 0 else { throw ViewfinderError.system(errno: errno, "creating a socket") }
        let socket = PreviewSocket(descriptor: descriptor)
        socket.setOption(SO_REUSEADDR, to: 1)
        guard bind(descriptor, entry.ai_addr, entry.ai_addrlen) == 0, Glibc.listen(descriptor, 16) == 0 else {
            let number = errno
            socket.close()
            let error = ViewfinderError.system(errno: number, "listening on \(address) port \(port)")
            let hint =
                switch number {
                case EADDRINUSE: "; another program uses the port: choose another with --port, or leave it out"
                case EADDRNOTAVAIL: "; the address is not one of this machine's"
                case EACCES: "; ports below 1024 need privileges: choose a higher one"
                default: ""
                }
            throw ViewfinderError(error.code, error.message + hint, errno: number)
        }
        return socket
    }

    /// The local port the socket is bound to.
    var localPort: UInt16 {
        var address = sockaddr_in6()
        var length = socklen_t(MemoryLayout<sockaddr_in6>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        // sin_port and sin6_port sit at the same offset.
        return UInt16(bigEndian: address.sin6_port)
    }

    /// Takes a waiting connection, or returns `nil` when none is waiting.
    func accept() -> PreviewSocket? {
        while true {
            let accepted = Glibc.accept(descriptor, nil, nil)
            if accepted >= 0 {
                _ = fcntl(accepted, F_SETFL, fcntl(accepted, F_GETFL) | O_NONBLOCK)
                _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
                return PreviewSocket(descriptor: accepted)
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            return nil
        }
    }

    /// Reads what has arrived into `buffer`: the byte count, 0 when the peer closed, `nil` when nothing is ready.
    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(ViewfinderError) -> Int? {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            default: throw ViewfinderError.system(errno: errno, "reading from a browser")
            }
        }
    }

    /// Sends all of `bytes`, waiting for the peer to take them until `deadline`.
    ///
    /// - Parameter more: Whether more data follows at once, so the kernel may hold this back to fill a packet.
    /// - Throws: `ViewfinderError` with code `timeout` when the peer takes too long, or the system's error.
    func send(_ bytes: UnsafeRawBufferPointer, deadline: ContinuousClock.Instant, more: Bool = false)
        throws(ViewfinderError)
    {
        var offset = 0
        let flags = Int32(MSG_NOSIGNAL) | (more ? Int32(MSG_MORE) : 0)
        while offset < bytes.count {
            let sent = Glibc.send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, flags)
            if sent >= 0 {
                offset += sent
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                let ready = try Poll.wait([(descriptor, Poll.writable)], until: deadline)
                guard ready[0] != 0 else {
                    throw ViewfinderError(.timeout, "the browser took no data for too long")
                }
            default: throw ViewfinderError.system(errno: errno, "sending to a browser")
            }
        }
    }

    /// Sends bytes; see ``send(_:deadline:more:)``.
    func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant, more: Bool = false) throws {
        try bytes.withUnsafeBytes { try send($0, deadline: deadline, more: more) }
    }

    /// Sends a string's UTF-8 bytes; see ``send(_:deadline:more:)``.
    func send(_ text: String, deadline: ContinuousClock.Instant, more: Bool = false) throws {
        try send(Array(text.utf8), deadline: deadline, more: more)
    }

    /// Sets an integer socket option at the socket level, such as `SO_SNDBUF`.
    func setOption(_ option: Int32, to value: Int32) {
        var value = value
        setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Ends both directions, waking any thread that waits on the socket; the descriptor stays open.
    func shutdown() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Closes the descriptor.
    func close() {
        _ = Glibc.close(descriptor)
    }
}

/// Waits on several descriptors at once with `poll(2)`.
enum Poll {
    /// The event of a descriptor with data to read, a connection to accept, or a closed peer (`POLLIN`).
    static let readable = Int16(POLLIN)
    /// The event of a descriptor that takes more data (`POLLOUT`).
    static let writable = Int16(POLLOUT)

    /// Waits until one of `requests` (a descriptor and the `poll` events wanted) is ready, or `deadline` passes.
    ///
    /// - Returns: The events that happened for each request, in order; all zero when the deadline passed.
    static func wait(_ requests: [(Int32, Int16)], until deadline: ContinuousClock.Instant) throws(ViewfinderError)
        -> [Int16]
    {
        var descriptors = requests.map { pollfd(fd: $0.0, events: $0.1, revents: 0) }
        while true {
            let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
            let milliseconds = max(0, seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(clamping: milliseconds))
            if ready > 0 || (ready == 0 && ContinuousClock.now >= deadline) { return descriptors.map(\.revents) }
            guard ready == 0 || errno == EINTR else {
                throw ViewfinderError.system(errno: errno, "waiting for sockets")
            }
        }
    }
}

/// A descriptor one thread signals to wake another that waits for it in ``Poll/wait(_:until:)``: a pipe.
final class Wakeup: Sendable {
    /// The end to wait on for `POLLIN`.
    let descriptor: Int32
    private let writeEnd: Int32

    /// Creates the pipe.
    ///
    /// - Throws: A `ViewfinderError` when the process has no descriptors left.
    init() throws(ViewfinderError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw ViewfinderError.system(errno: errno, "creating a pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Wakes the waiter; signals that arrive before it drains them count as one.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Clears the signals so far.
    func drain() {
        var bytes = (UInt64(0), UInt64(0))
        while read(descriptor, &bytes, MemoryLayout.size(ofValue: bytes)) > 0 {}
    }
}
