/// Timing helpers: each figure is the median of several runs, reported per value.

/// How many times each measurement runs; the median is reported.
let runs = 9

/// The clock all measurements use.
let clock = ContinuousClock()

/// The nanoseconds in a duration.
func nanoseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}

/// The median of `runs` runs of `body`, in nanoseconds per value for `count` values.
func measure(count: Int, _ body: () -> Duration) -> Double {
    _ = body()  // Warm-up.
    let samples = (0..<runs).map { _ in nanoseconds(body()) / Double(count) }
    return samples.sorted()[runs / 2]
}

/// The median of `runs` runs of `body`, in nanoseconds per value for `count` values.
func measure(count: Int, _ body: @Sendable () async -> Duration) async -> Double {
    _ = await body()  // Warm-up.
    var samples: [Double] = []
    for _ in 0..<runs {
        samples.append(nanoseconds(await body()) / Double(count))
    }
    return samples.sorted()[runs / 2]
}

#if canImport(Glibc)
import Glibc
#endif

/// Lets threads left busy by the previous run (dispatch workers keep spinning for a while) go idle.
func settle() {
    usleep(200_000)
}

/// Two measurements taken in alternation, with the ratio of each back-to-back pair of runs.
struct Pair {
    /// The median nanoseconds per value of the first body.
    let first: Double
    /// The median nanoseconds per value of the second body.
    let second: Double
    /// first ÷ second for each pair of runs, sorted.
    let ratios: [Double]

    /// The median of the per-run ratios.
    var ratio: Double { ratios[ratios.count / 2] }

    /// The number of runs in which the first body was faster.
    var firstFaster: Int { ratios.count { $0 < 1 } }
}

/// `runs` alternating runs of `first` and `second`, in nanoseconds per value for `count` values.
///
/// Alternating keeps a change in machine load from favouring one of the two.
func measurePair(count: Int, _ first: () -> Duration, _ second: () -> Duration) -> Pair {
    _ = first()  // Warm-up.
    settle()
    _ = second()
    var samples: [(first: Double, second: Double)] = []
    for _ in 0..<runs {
        settle()
        let firstSample = nanoseconds(first()) / Double(count)
        settle()
        samples.append((firstSample, nanoseconds(second()) / Double(count)))
    }
    return Pair(
        first: samples.map(\.first).sorted()[runs / 2],
        second: samples.map(\.second).sorted()[runs / 2],
        ratios: samples.map { $0.first / $0.second }.sorted()
    )
}

/// Keeps a result alive so the optimiser cannot drop the work that produced it.
@inline(never)
func consume(_ value: Int) {
    if value == .min { print("unreachable") }
}

/// `value` with `decimals` decimals, right-aligned in `width` characters.
func fixed(_ value: Double, decimals: Int = 1, width: Int = 9) -> String {
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((value * Double(scale)).rounded())
    let fraction = String(scaled % scale)
    let text =
        decimals == 0
        ? "\(scaled)" : "\(scaled / scale)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    return String(repeating: " ", count: max(width - text.count, 0)) + text
}

/// `text` padded with spaces to `width` characters.
func padded(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(width - text.count, 0))
}

/// Prints one figure: nanoseconds per value and values per second.
func report(_ name: String, _ nanosecondsPerValue: Double) {
    let perSecond = Int((1e9 / nanosecondsPerValue).rounded())
    print("  \(padded(name, 56)) \(fixed(nanosecondsPerValue)) ns/value  \(perSecond) values/s")
}

/// Prints a figure against a target and whether the target is met.
func verdict(_ name: String, _ figure: String, target: String, met: Bool) {
    verdict(name, figure, target: target, outcome: met ? "met" : "NOT MET")
}

/// Prints a figure against a target and the outcome.
func verdict(_ name: String, _ figure: String, target: String, outcome: String) {
    print("  \(padded(name, 50)) \(padded(figure, 14)) target \(target): \(outcome)")
}
