import BenchmarkSupport
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// What the process holds at one moment: resident memory, open file descriptors and threads, read from `/proc/self`.
struct Reading {
    /// Seconds since the soak started.
    var elapsed: Double
    /// Resident set size in bytes (`/proc/self/statm`, second field, in pages).
    var residentBytes: Int
    /// Entries of `/proc/self/fd`.
    var descriptors: Int
    /// Entries of `/proc/self/task`.
    var threads: Int

    static func take(elapsed: Double) -> Reading {
        Reading(
            elapsed: elapsed, residentBytes: BenchmarkSupport.residentBytes(),
            descriptors: Directory.names(in: "/proc/self/fd").count,
            threads: Directory.names(in: "/proc/self/task").count)
    }

    var residentMegabytes: Double { Double(residentBytes) / 1_048_576 }

    /// What each open descriptor refers to, by number, such as `socket:[81234]` or `anon_inode:[eventfd]`.
    static func descriptorTargets() -> [Int32: String] {
        var targets: [Int32: String] = [:]
        for name in Directory.names(in: "/proc/self/fd") {
            var target = [CChar](repeating: 0, count: 256)
            let length = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
            if let number = Int32(name), length > 0 {
                targets[number] = String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return targets
    }
}

extension Double {
    /// The number with one decimal, for the report.
    var tenths: String {
        let scaled = (self * 10).rounded()
        let whole = Int(scaled) / 10
        let tenth = abs(Int(scaled) % 10)
        return "\(scaled < 0 && whole == 0 ? "-" : "")\(whole).\(tenth)"
    }
}
