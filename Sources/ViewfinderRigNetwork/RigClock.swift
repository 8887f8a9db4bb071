import CViewfinderSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a host knows of its own clock: what keeps it in time, and the kernel's figures for how well.
public struct RigClockStatus: Sendable, Equatable {
    /// What keeps a host's clock in time.
    public enum Source: String, Sendable, CaseIterable {
        /// chronyd (NTP, tens of microseconds on a wired network).
        case chrony
        /// linuxptp's `ptp4l` or `phc2sys` (IEEE 1588, under a microsecond with hardware timestamps).
        case ptp
        /// Another NTP client: `ntpd`, `systemd-timesyncd` or `openntpd`.
        case ntp
        /// Nothing found.
        case none
    }

    /// What keeps the clock in time.
    public var source: Source
    /// Whether the kernel says the clock is synchronised (its `STA_UNSYNC` flag is clear).
    public var isSynchronized: Bool
    /// The kernel's offset to the reference, as the time daemon last told it.
    public var offset: Duration?
    /// The kernel's estimated error.
    public var estimatedError: Duration?
    /// The kernel's maximum error.
    public var maximumError: Duration?

    /// A status with these figures.
    public init(
        source: Source, isSynchronized: Bool, offset: Duration? = nil, estimatedError: Duration? = nil,
        maximumError: Duration? = nil
    ) {
        self.source = source
        self.isSynchronized = isSynchronized
        self.offset = offset
        self.estimatedError = estimatedError
        self.maximumError = maximumError
    }

    /// This host's clock now: the daemon found among the processes, and `ntp_adjtime(2)`'s figures.
    public static func current() -> RigClockStatus {
        var kernel = viewfinder_clock_state()
        guard viewfinder_clock_state(&kernel) != -1 else {
            return RigClockStatus(source: runningSource(), isSynchronized: false)
        }
        return RigClockStatus(
            source: runningSource(), isSynchronized: kernel.synchronized != 0,
            offset: .nanoseconds(kernel.offset_nanoseconds),
            estimatedError: .microseconds(kernel.estimated_error_microseconds),
            maximumError: .microseconds(kernel.maximum_error_microseconds))
    }

    /// The time daemon running on this host, from the names of the processes in `/proc`.
    static func runningSource() -> Source {
        let names = Set(
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).lazy.filter {
                $0.first?.isNumber == true
            }.compactMap { pid in
                (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(
                    in: .whitespacesAndNewlines)
            })
        if names.contains("ptp4l") || names.contains("phc2sys") { return .ptp }
        if names.contains("chronyd") { return .chrony }
        if !names.isDisjoint(with: ["ntpd", "systemd-timesyn", "openntpd"]) { return .ntp }
        return .none
    }

    /// The status as a host's record carries it.
    var wire: RigWire.Clock {
        RigWire.Clock(
            source: source.rawValue, synchronized: isSynchronized,
            offsetMicroseconds: offset.map(Self.microseconds),
            estimatedErrorMicroseconds: estimatedError.map(Self.microseconds),
            maximumErrorMicroseconds: maximumError.map(Self.microseconds))
    }

    /// The status a host's record gives; `nil` for a source this code does not know.
    init?(wire: RigWire.Clock) {
        guard let source = Source(rawValue: wire.source) else { return nil }
        self.init(
            source: source, isSynchronized: wire.synchronized,
            offset: wire.offsetMicroseconds.map { .microseconds($0) },
            estimatedError: wire.estimatedErrorMicroseconds.map { .microseconds($0) },
            maximumError: wire.maximumErrorMicroseconds.map { .microseconds($0) })
    }

    private static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
    }
}

/// How far a host's clock is from the coordinator's, measured over the broker as NTP measures it.
///
/// The coordinator sends a ping at t1 (its clock); the host receives it at t2 and answers at t3 (the host's clock);
/// the answer arrives at t4. The offset is `((t2 − t1) + (t3 − t4)) / 2`, exact when the way there and back take
/// as long; the round trip less the host's time is `(t4 − t1) − (t3 − t2)`, and the offset is within half of it.
/// Of several pings, the one with the shortest round trip is kept. Through a broker this is good to a millisecond or
/// two: it catches a host whose clock is wrong, and does not replace chrony or PTP.
public struct RigClockEstimate: Sendable, Equatable {
    /// How far the host's clock is ahead of the coordinator's (negative when behind).
    public var offset: Duration
    /// The round trip of the ping the estimate comes from, the host's own time excluded.
    public var roundTrip: Duration
    /// How many pings were answered.
    public var samples: Int

    /// An estimate with these figures.
    public init(offset: Duration, roundTrip: Duration, samples: Int) {
        self.offset = offset
        self.roundTrip = roundTrip
        self.samples = samples
    }

    /// How far off the offset may be: half the round trip.
    public var uncertainty: Duration { roundTrip / 2 }

    /// The estimate from one ping's four times, in nanoseconds of each side's CLOCK_REALTIME.
    init(sent t1: Int64, received t2: Int64, answered t3: Int64, arrived t4: Int64) {
        let offset = ((t2 - t1) + (t3 - t4)) / 2
        let roundTrip = max(0, (t4 - t1) - (t3 - t2))
        self.init(offset: .nanoseconds(offset), roundTrip: .nanoseconds(roundTrip), samples: 1)
    }

    /// The better of two estimates of the same host (the shorter round trip), counting both.
    func combined(with other: RigClockEstimate) -> RigClockEstimate {
        var best = other.roundTrip < roundTrip ? other : self
        best.samples = samples + other.samples
        return best
    }
}

/// CLOCK_REALTIME in nanoseconds, as the rig's messages carry times.
package func realtimeNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
}
