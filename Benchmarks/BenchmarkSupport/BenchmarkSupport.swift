// What the benchmark programs share: printing as they go, numbers for people, CPU time, resident memory, and their
// own path.

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

/// This process's resident set size in bytes: the second field of `/proc/self/statm`, in pages; 0 when unreadable.
package func residentBytes() -> Int {
    let descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return 0 }
    defer { close(descriptor) }
    var text = [UInt8](repeating: 0, count: 128)
    let length = text.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    let fields = text.prefix(max(length, 0)).split(separator: UInt8(ascii: " "))
    guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The median of some numbers: the middle one, or the mean of the two in the middle.
package func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// The mean of some numbers; 0 for none.
package func mean(_ values: [Double]) -> Double {
    values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
}

/// The standard deviation of some numbers about their mean (of the population); 0 for fewer than two.
package func standardDeviation(_ values: [Double]) -> Double {
    guard values.count > 1 else { return 0 }
    let average = mean(values)
    return (values.map { ($0 - average) * ($0 - average) }.reduce(0, +) / Double(values.count)).squareRoot()
}

extension String {
    /// The text with spaces before it to fill `width` characters, for a column of numbers.
    package func leftPadded(_ width: Int) -> String {
        String(repeating: " ", count: max(0, width - count)) + self
    }

    /// The text with spaces after it to fill `width` characters, for a column of names.
    package func rightPadded(_ width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}

/// A failure that stops a benchmark, saying why.
package struct BenchmarkFailure: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
