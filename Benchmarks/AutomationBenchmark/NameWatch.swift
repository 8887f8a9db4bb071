import BenchmarkSupport
import Foundation
import ViewfinderSystem

/// The moments files take their names in a directory, as inotify tells a thread of its own: a file renamed into the
/// directory (`IN_MOVED_TO`), or one written under its own name and closed (`IN_CLOSE_WRITE`), whichever comes first.
///
/// The moment is the one at which a program that looks for the name finds the whole file, whichever way the file was
/// written; it is read on the monotonic clock, as precisely as the thread wakes.
final class NameWatch: Sendable {
    private let descriptor: Int32
    private let named = Locked<[String: ContinuousClock.Instant]>([:])
    private let running = Locked(true)

    /// Starts watching `directory`.
    init(_ directory: String) throws {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else {
            throw BenchmarkFailure("cannot watch \(directory): \(String(cString: strerror(errno)))")
        }
        guard inotify_add_watch(descriptor, directory, UInt32(IN_MOVED_TO | IN_CLOSE_WRITE)) >= 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw BenchmarkFailure("cannot watch \(directory): \(reason)")
        }
        let thread = Thread { [self] in watch() }
        thread.start()
    }

    /// Stops watching; the thread ends within 20 ms.
    func stop() {
        running.withLock { $0 = false }
    }

    /// When each name that `include` accepts appeared, earliest first.
    func instants(where include: (String) -> Bool) -> [ContinuousClock.Instant] {
        named.withLock { $0.filter { include($0.key) }.map(\.value) }.sorted()
    }

    private func watch() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        let header = MemoryLayout<inotify_event>.size
        while running.withLock({ $0 }) {
            var target = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&target, 1, 20) > 0 else { continue }
            let now = ContinuousClock.now
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            var offset = 0
            while offset + header <= count {
                let (length, name) = buffer.withUnsafeBytes { raw in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = min(offset + header, count)
                    let end = min(start + Int(event.len), count)
                    return (Int(event.len), String(decoding: raw[start..<end].prefix { $0 != 0 }, as: UTF8.self))
                }
                offset += header + length
                named.withLock { named in
                    if named[name] == nil { named[name] = now }
                }
            }
        }
        close(descriptor)
    }
}
