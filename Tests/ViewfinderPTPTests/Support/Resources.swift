import ViewfinderCore
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What the process holds for one TCP port, read from `/proc` and asked of its sockets: the threads named after the
/// port (the session's `ptp<port>-cmd` and `ptp<port>-events`, the simulator's `sim<port>-…`) and the open
/// descriptors of sockets that listen on the port or connect to it.
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
        var open: Set<UInt64> = []
        for name in names(in: "/proc/self/fd") {
            guard let descriptor = CInt(name), let inode = socketInode(of: descriptor),
                isTCP(descriptor), localPort(of: descriptor) == port || peerPort(of: descriptor) == port
            else { continue }
            open.insert(inode)
        }
        return PortResources(threads: threads.sorted(), sockets: open)
    }

    var description: String { "threads \(threads), \(sockets.count) socket descriptors" }

    /// The inode of the socket a descriptor refers to, from its link in `/proc/self/fd`; nil for other files.
    private static func socketInode(of descriptor: CInt) -> UInt64? {
        var target = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/self/fd/\(descriptor)", &target, target.count - 1)
        guard count > 0 else { return nil }
        let link = String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard link.hasPrefix("socket:[") else { return nil }
        return UInt64(link.dropFirst(8).dropLast())
    }

    /// Whether a descriptor is a stream socket.
    private static func isTCP(_ descriptor: CInt) -> Bool {
        var type: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        return getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0 && type == CInt(SOCK_STREAM.rawValue)
    }

    /// The port a socket is bound to, asked of the socket itself (cheaper than reading the machine's whole TCP
    /// tables, which tests do every few milliseconds while they wait).
    private static func localPort(of descriptor: CInt) -> UInt16? {
        port(of: descriptor, getsockname)
    }

    /// The port a socket is connected to.
    private static func peerPort(of descriptor: CInt) -> UInt16? {
        port(of: descriptor, getpeername)
    }

    private static func port(
        of descriptor: CInt, _ ask: (CInt, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) -> CInt
    ) -> UInt16? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let asked = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ask(descriptor, $0, &length) }
        }
        guard asked == 0 else { return nil }
        return withUnsafeBytes(of: address) { bytes -> UInt16? in
            switch CInt(address.ss_family) {
            // sin_port and sin6_port both follow the two bytes of the family.
            case AF_INET, AF_INET6: return UInt16(bigEndian: bytes.load(fromByteOffset: 2, as: UInt16.self))
            default: return nil
            }
        }
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

    /// The first line of a short file such as a thread's `comm`, read into a small buffer: hundreds of threads are
    /// named each time a test checks.
    private static func firstLine(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
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
