import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#endif

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
