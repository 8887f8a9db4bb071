// What the benchmark programs share: printing as they go, numbers for people, CPU time, and their own path.

#if canImport(Glibc)
import Glibc
#endif

/// Prints a line at once, even into a pipe.
package func say(_ line: String) {
    print(line)
    fflush(nil)
}

/// A number with `digits` decimals.
package func format(_ value: Double, _ digits: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
    return text
}

/// The CPU seconds this process has used so far, in all its threads.
package func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// This executable's path, for starting a child of the same program; `fallback` when it cannot be read.
package func executablePath(orElse fallback: String) -> String {
    var path = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &path, path.count - 1)
    return length > 0 ? String(decoding: path[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : fallback
}
