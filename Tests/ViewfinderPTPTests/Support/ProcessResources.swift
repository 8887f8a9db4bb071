import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// The file descriptors and threads the test process has open, read from `/proc/self`.
///
/// The totals include what tests running beside the current one hold; what belongs to one simulated camera is
/// counted exactly through its port, which appears in the names of the session's threads (`ptp<port>-cmd`,
/// `ptp<port>-events`) and of the simulator's (`sim<port>-…`), and in the addresses of their sockets.
struct ProcessResources: CustomStringConvertible {
    /// Open file descriptors.
    var descriptors: Int
    /// Threads.
    var threads: Int

    static var current: ProcessResources {
        ProcessResources(descriptors: entries(of: "/proc/self/fd").count, threads: entries(of: "/proc/self/task").count)
    }

    var description: String { "\(descriptors) file descriptors, \(threads) threads" }

    /// The names of the threads that mention `port`.
    static func threads(mentioning port: UInt16) -> [String] {
        entries(of: "/proc/self/task").compactMap { task in
            let name = contents(of: "/proc/self/task/\(task)/comm").split(separator: "\n").first.map(String.init) ?? ""
            return name.contains(String(port)) ? name : nil
        }
    }

    /// The number of open TCP sockets whose local or remote port is `port`.
    static func sockets(onPort port: UInt16) -> Int {
        var inodes: Set<String> = []
        for entry in entries(of: "/proc/self/fd") {
            var target = [CChar](repeating: 0, count: 256)
            let count = readlink("/proc/self/fd/\(entry)", &target, target.count - 1)
            guard count > 0 else { continue }
            let link = String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("socket:[") {
                inodes.insert(String(link.dropFirst(8).dropLast()))
            }
        }
        // The tables give addresses as hexadecimal, the port in four upper-case digits: 0100007F:1F90.
        let digits = String(port, radix: 16, uppercase: true)
        let hexPort = ":" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        var matches = 0
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            for line in contents(of: table).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, inodes.contains(String(fields[9])) else { continue }
                if fields[1].hasSuffix(hexPort) || fields[2].hasSuffix(hexPort) {
                    matches += 1
                }
            }
        }
        return matches
    }

    /// Waits, up to `checks` checks 10 ms apart, until `condition` holds of the resources; returns the last reading.
    static func settle(checks: Int = 1000, until condition: (ProcessResources) -> Bool) async -> ProcessResources {
        var reading = current
        for _ in 0..<checks where !condition(reading) {
            try? await Task.sleep(for: .milliseconds(10))
            reading = current
        }
        return reading
    }

    private static func entries(of directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    private static func contents(of path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
