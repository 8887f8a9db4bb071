#if canImport(Glibc)
import Glibc
#endif

/// The CPU seconds this process has used so far, in all its threads.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// This process's resident set size in megabytes, from the second field of `/proc/self/statm` (in pages).
func residentMegabytes() -> Double {
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    guard fgets(&line, Int32(line.count), file) != nil else { return 0 }
    let fields = line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.split(separator: " ")
    guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
    return Double(pages * Int(sysconf(Int32(_SC_PAGESIZE)))) / 1e6
}

/// A number with `digits` decimals.
func format(_ value: Double, _ digits: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

/// Prints a line at once, even into a pipe.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

/// Prints a target's verdict and returns whether it was met.
func verdict(_ name: String, _ met: Bool, _ detail: String) -> Bool {
    say("  \(met ? "met    " : "NOT MET") \(name): \(detail)")
    return met
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
