import Viewfinder
import ViewfinderSystem

/// Measures how many events happen per second, over the last few seconds, in fixed memory.
struct RateMeter: Sendable {
    /// How many of the latest events the rate is measured over.
    static let capacity = 32
    /// Events older than this do not count.
    static let window = Duration.seconds(2)

    private var times: [MonotonicTimestamp] = []
    private var next = 0

    /// Notes an event at `time`.
    mutating func record(at time: MonotonicTimestamp = .now()) {
        if times.count < Self.capacity {
            times.append(time)
        } else {
            times[next] = time
        }
        next = (next + 1) % Self.capacity
    }

    /// Events per second among the recent ones; zero when fewer than two happened within the window.
    func rate(at now: MonotonicTimestamp = .now()) -> Double {
        let recent = times.filter { now.duration(since: $0) <= Self.window }
        guard recent.count > 1, let first = recent.min(), let last = recent.max(), last > first else { return 0 }
        return Double(recent.count - 1) / last.duration(since: first).inSeconds
    }
}
