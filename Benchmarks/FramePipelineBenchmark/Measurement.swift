import BenchmarkSupport
import Synchronization
import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// Nanoseconds on the monotonic clock.
func nanosecondsNow() -> UInt64 {
    MonotonicTimestamp.now().nanoseconds
}

/// Sleeps the calling thread for `microseconds`.
func sleep(microseconds: Int) {
    var request = timespec(tv_sec: microseconds / 1_000_000, tv_nsec: (microseconds % 1_000_000) * 1000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR {
        request = remaining
    }
}

/// A time stamp one thread writes and another waits for.
final class Stamp: Sendable {
    private let value = Atomic<UInt64>(0)

    /// The last time stored.
    func load() -> UInt64 { value.load(ordering: .acquiring) }

    /// Stores the current time.
    func stampNow() { value.store(nanosecondsNow(), ordering: .releasing) }

    /// Busy-waits until the stamp holds a value other than `previous`, and returns it.
    func spin(changingFrom previous: UInt64) -> UInt64 {
        while true {
            let current = value.load(ordering: .acquiring)
            if current != previous { return current }
        }
    }
}

/// Order statistics of a set of samples, in nanoseconds.
struct Percentiles {
    let median: Double
    let p99: Double
    let max: Double

    init(_ samples: [UInt64]) {
        let sorted = samples.sorted()
        func at(_ fraction: Double) -> Double {
            Double(sorted[Swift.min(sorted.count - 1, Int(Double(sorted.count) * fraction))])
        }
        median = at(0.5)
        p99 = at(0.99)
        max = Double(sorted.last ?? 0)
    }

    /// `median …, p99 …, max …`.
    var summary: String {
        "median \(formatDuration(median)), p99 \(formatDuration(p99)), max \(formatDuration(max))"
    }
}

/// The process's peak resident memory since start or since ``resetPeakResidentBytes()``, in bytes.
func peakResidentBytes() -> Int {
    for line in readProcFile("/proc/self/status").split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        return kilobytes * 1024
    }
    return 0
}

/// Resets the peak resident memory to the current resident memory (Linux `clear_refs` 5).
func resetPeakResidentBytes() {
    let descriptor = open("/proc/self/clear_refs", O_WRONLY)
    guard descriptor >= 0 else { return }
    _ = write(descriptor, "5", 1)
    close(descriptor)
}

func readProcFile(_ path: String) -> String {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: 4096)
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    return String(decoding: bytes.prefix(max(0, count)), as: UTF8.self)
}

/// CPU time of the whole machine and of this process, to tell how busy other processes kept the machine.
struct CPUTimes {
    /// Jiffies the machine's CPUs spent busy, and in all.
    let machineBusy: Int
    let machineTotal: Int
    /// Jiffies this process used.
    let own: Int

    /// The times now, from `/proc/stat` and `/proc/self/stat`.
    static func now() -> CPUTimes {
        let fields = readProcFile("/proc/stat").split(separator: "\n").first?.split(separator: " ").dropFirst()
        let values = fields?.compactMap { Int($0) } ?? []
        let total = values.prefix(8).reduce(0, +)
        let idle = values.count > 4 ? values[3] + values[4] : total
        // After the command name in parentheses: utime and stime are the 12th and 13th fields.
        let own = readProcFile("/proc/self/stat").split(separator: ")").last?.split(separator: " ") ?? []
        let used = own.count > 12 ? (Int(own[11]) ?? 0) + (Int(own[12]) ?? 0) : 0
        return CPUTimes(machineBusy: total - idle, machineTotal: total, own: used)
    }

    /// The share of the machine's CPU time that other processes used since `start`, as a percentage.
    func othersShare(since start: CPUTimes) -> String {
        let total = max(1, machineTotal - start.machineTotal)
        let others = max(0, (machineBusy - start.machineBusy) - (own - start.own))
        return "\(others * 100 / total)%"
    }
}

/// Formats nanoseconds for people: `850 ns`, `12.3 µs`, `4.56 ms`.
func formatDuration(_ nanoseconds: Double) -> String {
    if nanoseconds < 1000 { return "\(Int(nanoseconds.rounded())) ns" }
    if nanoseconds < 1_000_000 { return "\(format(nanoseconds / 1000, digits: 2)) µs" }
    return "\(format(nanoseconds / 1_000_000, digits: 2)) ms"
}

/// Formats a rate for people: `1.23 M/s`, `456 k/s`.
func formatRate(_ perSecond: Double) -> String {
    if perSecond >= 1_000_000 { return "\(format(perSecond / 1_000_000, digits: 2)) M/s" }
    if perSecond >= 1000 { return "\(format(perSecond / 1000, digits: 1)) k/s" }
    return "\(format(perSecond, digits: 1)) /s"
}

/// Formats bytes as kibibytes below a mebibyte, else as mebibytes.
func formatBytes(_ bytes: Int) -> String {
    bytes < 1 << 20 ? "\(format(Double(bytes) / 1024, digits: 1)) KiB" : formatMegabytes(bytes)
}

/// Formats bytes as mebibytes.
func formatMegabytes(_ bytes: Int) -> String {
    "\(format(Double(bytes) / 1_048_576, digits: 1)) MiB"
}

/// `value` with `digits` digits after the point.
func format(_ value: Double, digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let whole = scaled / Int(scale)
    let fraction = String(abs(scaled) % Int(scale))
    guard digits > 0 else { return String(whole) }
    let sign = scaled < 0 && whole == 0 ? "-" : ""
    return "\(sign)\(whole).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
}

/// Prints a labelled line of the report.
func report(_ label: String, _ value: String) {
    let padding = String(repeating: " ", count: max(1, 46 - label.count))
    print("  \(label):\(padding)\(value)")
}

/// `value / peer` as `1.23×`.
func ratio(_ value: Double, _ peer: Double) -> String {
    "\(format(value / peer, digits: 2))×"
}

/// `met` or `NOT MET`, for a target line.
func verdict(_ met: Bool) -> String {
    met ? "met" : "NOT MET"
}
