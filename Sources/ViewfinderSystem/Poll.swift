#if canImport(Glibc)
import Glibc
#endif

/// Waits for descriptors to become ready with `poll(2)`, until a deadline.
///
/// ```swift
/// let ready = try Poll.wait([.init(socket.descriptor, for: Poll.readable), .init(wakeup.descriptor, for: Poll.readable)],
///                           until: .now + .seconds(5))
/// if ready[1] != 0 { return }  // woken
/// ```
package enum Poll {
    /// Data to read, a connection to accept, or a closed peer (`POLLIN`).
    package static let readable = Int16(POLLIN)
    /// Room to write (`POLLOUT`).
    package static let writable = Int16(POLLOUT)
    /// An error or hang-up, which `poll` reports whatever was asked (`POLLERR | POLLHUP`).
    package static let failed = Int16(POLLERR | POLLHUP)

    /// A descriptor and the events to wait for.
    package struct Request: Sendable {
        /// The descriptor's number.
        package var descriptor: CInt
        /// The events, such as ``Poll/readable``.
        package var events: Int16

        /// Creates a request.
        package init(_ descriptor: CInt, for events: Int16) {
            self.descriptor = descriptor
            self.events = events
        }
    }

    /// Waits until one of `requests` is ready or `deadline` passes; a `nil` deadline waits for ever.
    ///
    /// - Returns: The events that happened for each request, in order; all zero when the deadline passed.
    package static func wait(_ requests: [Request], until deadline: ContinuousClock.Instant?) throws(Errno) -> [Int16] {
        var descriptors = requests.map { pollfd(fd: $0.descriptor, events: $0.events, revents: 0) }
        let failure = descriptors.withUnsafeMutableBufferPointer {
            poll($0.baseAddress, count: $0.count, until: deadline)
        }
        if let failure { throw failure }
        return descriptors.map(\.revents)
    }

    /// Waits until `descriptor` is ready for `events` or `deadline` passes, with nothing allocated, as a socket waits
    /// before each read.
    ///
    /// - Returns: The events that happened; 0 when the deadline passed.
    package static func wait(_ descriptor: CInt, for events: Int16, until deadline: ContinuousClock.Instant?)
        throws(Errno) -> Int16
    {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        if let failure = poll(&entry, count: 1, until: deadline) { throw failure }
        return entry.revents
    }

    /// Calls `poll` on `count` entries until one is ready or `deadline` has really passed, again when a signal
    /// interrupts it.
    ///
    /// - Returns: The error that ended the wait, or `nil`.
    private static func poll(
        _ entries: UnsafeMutablePointer<pollfd>?, count: Int, until deadline: ContinuousClock.Instant?
    ) -> Errno? {
        while true {
            let timeout = deadline.map { milliseconds(until: $0) } ?? -1
            let ready = Glibc.poll(entries, nfds_t(count), timeout)
            if ready > 0 { return nil }
            if ready == 0 {
                // poll rounds down to its clock's tick: wait again until the deadline has really passed.
                guard let deadline, ContinuousClock.now < deadline else { return nil }
                continue
            }
            let error = Errno.current
            guard error == .interrupted else { return error }
        }
    }

    /// The milliseconds from now until `deadline`, rounded up and at least 0, as `poll` takes them.
    package static func milliseconds(until deadline: ContinuousClock.Instant) -> CInt {
        CInt(clamping: max(0, ContinuousClock.now.duration(to: deadline).roundedUpMilliseconds))
    }
}

extension Duration {
    /// The duration in whole milliseconds, rounded up.
    package var roundedUpMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }

    /// The duration in seconds, as a floating-point number, for messages and arithmetic.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
