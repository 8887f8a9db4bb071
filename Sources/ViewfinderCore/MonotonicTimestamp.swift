#if canImport(Glibc)
import Glibc
#endif

/// A point in time on the system's monotonic clock (`CLOCK_MONOTONIC`), in nanoseconds since boot.
///
/// V4L2 drivers stamp buffers on this clock, so frames from devices and frames stamped with ``now()`` compare
/// directly.
public struct MonotonicTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds since an arbitrary point, usually boot.
    public let nanoseconds: UInt64

    /// Creates a timestamp from nanoseconds on the monotonic clock.
    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    /// The current time on the monotonic clock.
    public static func now() -> MonotonicTimestamp {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicTimestamp(nanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
    }

    /// The time from `earlier` to this timestamp; zero if `earlier` is later.
    public func duration(since earlier: MonotonicTimestamp) -> Duration {
        guard nanoseconds > earlier.nanoseconds else { return .zero }
        return .nanoseconds(Int64(nanoseconds - earlier.nanoseconds))
    }

    /// Orders timestamps by time.
    public static func < (lhs: MonotonicTimestamp, rhs: MonotonicTimestamp) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// The time in seconds, with nanosecond digits.
    public var description: String {
        let fraction = String(nanoseconds % 1_000_000_000)
        return "\(nanoseconds / 1_000_000_000).\(String(repeating: "0", count: 9 - fraction.count))\(fraction)s"
    }
}
