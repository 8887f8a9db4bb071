import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#endif

/// This process's resident set size in megabytes.
func residentMegabytes() -> Double {
    Double(residentBytes()) / 1e6
}

/// Prints a target's verdict and returns whether it was met.
func verdict(_ name: String, _ met: Bool, _ detail: String) -> Bool {
    say("  \(met ? "met    " : "NOT MET") \(name): \(detail)")
    return met
}
