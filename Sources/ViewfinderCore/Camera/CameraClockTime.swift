#if canImport(Glibc)
import Glibc
#endif

/// A moment on a camera's clock: whole seconds since 1970, in UTC.
///
/// ```swift
/// try await camera.updateClock(to: .now())
/// let drift = try await camera.readClock().secondsSince1970 - CameraClockTime.now().secondsSince1970
/// ```
///
/// With Foundation, `CameraClockTime(secondsSince1970: Int64(date.timeIntervalSince1970))` makes one from a `Date`.
public struct CameraClockTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since 1970-01-01 00:00:00 UTC.
    public var secondsSince1970: Int64

    /// Creates a moment `secondsSince1970` seconds after 1970-01-01 00:00:00 UTC.
    public init(secondsSince1970: Int64) {
        self.secondsSince1970 = secondsSince1970
    }

    /// This computer's clock now.
    public static func now() -> CameraClockTime {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return CameraClockTime(secondsSince1970: Int64(time.tv_sec))
    }

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: CameraClockTime, rhs: CameraClockTime) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    /// The moment in ISO 8601 form, such as `2026-12-06T13:50:00Z`.
    public var description: String { text(separated: true) }

    /// The moment as ISO 8601 writes it: `2026-12-06T13:50:00Z` when `separated`, else `20261206T135000` as PTP's
    /// DateTime does.
    package func text(separated: Bool) -> String {
        var seconds = time_t(secondsSince1970)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "\(secondsSince1970) s since 1970" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let (dash, colon, zone) = separated ? ("-", ":", "Z") : ("", "", "")
        return "\(parts.tm_year + 1900)\(dash)\(two(parts.tm_mon + 1))\(dash)\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour))\(colon)\(two(parts.tm_min))\(colon)\(two(parts.tm_sec))\(zone)"
    }
}
