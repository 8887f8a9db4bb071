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
        while true {
            let timeout = deadline.map { milliseconds(until: $0) } ?? -1
            let ready = descriptors.withUnsafeMutableBufferPointer {
                Glibc.poll($0.baseAddress, nfds_t($0.count), timeout)
            }
            if ready > 0 { return descriptors.map(\.revents) }
            if ready == 0 {
                // poll rounds down to its clock's tick: wait again until the deadline has really passed.
                guard let deadline, ContinuousClock.now < deadline else { return descriptors.map(\.revents) }
                continue
            }
            let error = Errno.current
            guard error == .interrupted else { throw error }
        }
    }

    /// Waits until `descriptor` is ready for `events` or `deadline` passes.
    ///
    /// - Returns: The events that happened; 0 when the deadline passed.
    package static func wait(_ descriptor: CInt, for events: Int16, until deadline: ContinuousClock.Instant?)
        throws(Errno) -> Int16
    {
        try wait([Request(descriptor, for: events)], until: deadline)[0]
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
