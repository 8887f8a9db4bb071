import ViewfinderCore
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What the process holds for one TCP port, read from `/proc`: the threads named after the port (the session's
/// `ptp<port>-cmd` and `ptp<port>-events`, the simulator's `sim<port>-…`) and the open descriptors of sockets that
/// listen on the port or connect to it.
///
/// Counting by port, not in total, keeps the numbers exact while other tests run in the same process.
struct PortResources: Equatable, CustomStringConvertible {
    /// The names of the threads, one entry per thread.
    var threads: [String]
    /// The inodes of the sockets the process has descriptors for.
    var sockets: Set<UInt64>

    /// Nothing held.
    static let none = PortResources(threads: [], sockets: [])

    /// What the process holds for `port` now.
    static func held(for port: UInt16) -> PortResources {
        let suffixes = ["ptp\(port)-", "sim\(port)-"]
        let threads = names(in: "/proc/self/task").compactMap { tid -> String? in
            guard let name = firstLine(of: "/proc/self/task/\(tid)/comm") else { return nil }
            return suffixes.contains(where: name.hasPrefix) ? name : nil
        }
        let portSockets = socketInodes(port: port)
        var open: Set<UInt64> = []
        for descriptor in names(in: "/proc/self/fd") {
            var target = [CChar](repeating: 0, count: 64)
            let count = readlink("/proc/self/fd/\(descriptor)", &target, target.count - 1)
            guard count > 0 else { continue }
            let link = String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("socket:["), let inode = UInt64(link.dropFirst(8).dropLast()),
                portSockets.contains(inode)
            {
                open.insert(inode)
            }
        }
        return PortResources(threads: threads.sorted(), sockets: open)
    }

    var description: String { "threads \(threads), \(sockets.count) socket descriptors" }

    /// The inodes of the TCP sockets whose local or remote port is `port`, from `/proc/net/tcp` and `tcp6`.
    private static func socketInodes(port: UInt16) -> Set<UInt64> {
        let hex = String(port, radix: 16, uppercase: true)
        let field = ":" + String(repeating: "0", count: 4 - hex.count) + hex
        var inodes: Set<UInt64> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            for line in lines(of: table).dropFirst() {
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                guard columns.count > 9, columns[1].hasSuffix(field) || columns[2].hasSuffix(field),
                    let inode = UInt64(columns[9]), inode != 0
                else { continue }
                inodes.insert(inode)
            }
        }
        return inodes
    }

    /// The names in a directory, other than `.` and `..`.
    static func names(in directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }

    private static func firstLine(of path: String) -> String? {
        lines(of: path).first.map(String.init)
    }

    private static func lines(of path: String) -> [Substring] {
        guard let bytes = try? readFile(path) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    }
}

/// The file descriptors and threads of the whole process, counted in `/proc/self/fd` and `/proc/self/task`.
///
/// The totals include what tests running beside the current one hold: compare them with a tolerance, and count what
/// one camera holds with ``PortResources``.
struct ProcessResources: CustomStringConvertible {
    var descriptors: Int
    var threads: Int

    static var current: ProcessResources {
        ProcessResources(
            descriptors: PortResources.names(in: "/proc/self/fd").count,
            threads: PortResources.names(in: "/proc/self/task").count)
    }

    var description: String { "\(descriptors) file descriptors, \(threads) threads" }

    /// Waits, up to `checks` checks 10 ms apart, until `condition` holds of the totals; returns the last reading.
    static func settle(checks: Int = 1000, until condition: (ProcessResources) -> Bool) async -> ProcessResources {
        var reading = current
        for _ in 0..<checks where !condition(reading) {
            try? await Task.sleep(for: .milliseconds(10))
            reading = current
        }
        return reading
    }
}
