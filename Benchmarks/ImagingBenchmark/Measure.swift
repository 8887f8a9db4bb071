import AllocationCounter

#if canImport(Glibc)
import Glibc
#endif

/// Seconds of CPU time the calling thread has used: unlike the wall clock, it does not count the time other
/// processes on a busy machine take from it.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The middle value.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

/// Seconds per call of `body`, over `calls` calls.
func secondsPerCall(_ calls: Int, _ body: () throws -> Void) rethrows -> Double {
    let start = now()
    for _ in 0..<calls { try body() }
    return (now() - start) / Double(calls)
}

/// Heap allocations per call of `body`, over `calls` calls, counted by the process-wide allocation counter.
func allocationsPerCall(_ calls: Int, _ body: () throws -> Void) rethrows -> Double {
    let before = viewfinder_allocation_count()
    for _ in 0..<calls { try body() }
    return Double(viewfinder_allocation_count() - before) / Double(calls)
}

/// One operation measured through Viewfinder's API and through the same library calls made directly.
struct Comparison {
    var name: String
    var viewfinder: Double
    var direct: Double
    var viewfinderAllocations: Double
    var directAllocations: Double
    var ffmpeg: Double?

    /// Viewfinder's time over the direct calls' time.
    var overhead: Double { viewfinder / direct }
    /// How many times faster than ffmpeg Viewfinder is.
    var speedUpOverFFmpeg: Double? { ffmpeg.map { $0 / viewfinder } }
}

/// Measures two ways of doing one thing, interleaved round by round so that load from other processes falls on
/// both alike; each round runs about 10 ms of calls, and the medians of `rounds` rounds are kept.
func compare(
    _ name: String, rounds: Int = 41, viewfinder: () throws -> Void, direct: () throws -> Void
) rethrows -> Comparison {
    for _ in 0..<3 {
        try viewfinder()
        try direct()
    }
    let estimate = try secondsPerCall(3, viewfinder)
    let calls = max(1, Int(0.01 / estimate))
    var viewfinderTimes: [Double] = []
    var directTimes: [Double] = []
    for _ in 0..<rounds {
        viewfinderTimes.append(try secondsPerCall(calls, viewfinder))
        directTimes.append(try secondsPerCall(calls, direct))
    }
    return Comparison(
        name: name, viewfinder: median(viewfinderTimes), direct: median(directTimes),
        viewfinderAllocations: try allocationsPerCall(20, viewfinder),
        directAllocations: try allocationsPerCall(20, direct))
}

/// Milliseconds with three decimals.
func milliseconds(_ seconds: Double?) -> String {
    guard let seconds else { return "-" }
    let thousandths = Int((seconds * 1e6).rounded())
    let fraction = String(thousandths % 1000)
    return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
}

/// A ratio with two decimals.
func ratio(_ value: Double?) -> String {
    guard let value, value.isFinite else { return "-" }
    let hundredths = Int((value * 100).rounded())
    let fraction = String(hundredths % 100)
    return "\(hundredths / 100).\(fraction.count < 2 ? "0" : "")\(fraction)"
}

/// Pads `text` on the right to `width` characters.
func padded(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}
