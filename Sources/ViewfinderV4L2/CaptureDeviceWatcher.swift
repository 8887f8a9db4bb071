import Synchronization
import ViewfinderCore
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Watches a directory (normally `/dev`) with inotify and reports capture devices that appear or disappear.
///
/// A node that appears is opened and queried before it is announced, so only nodes that capture video are reported;
/// a node that is not ready yet when it appears is tried again when its attributes change (as udev sets permissions).
/// Events arrive on the watcher's own thread, in order.
package final class CaptureDeviceWatcher: Sendable {
    /// A capture device appeared (attached), or the one that was at its node went away (detached).
    package typealias Event = DeviceChange<CaptureDevice>

    private let thread: WakeableThread
    private let inotify: FileDescriptor

    /// Starts watching `directory`; devices already there count as known and are not announced.
    package init(
        directory: String = "/dev",
        system: any V4L2System = LinuxV4L2System(),
        handler: @escaping @Sendable (Event) -> Void
    ) throws(V4L2Error) {
        let inotify: FileDescriptor
        do {
            inotify = FileDescriptor(
                unsafeAdopting: try valueOrErrno { inotify_init1(CInt(IN_CLOEXEC | IN_NONBLOCK)) }.get())
        } catch {
            throw V4L2Error(operation: "inotify_init1", path: directory, code: error)
        }
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MOVED_TO | IN_MOVED_FROM)
        let descriptor = inotify.rawValue
        if case .failure(let error) = valueOrErrno({ inotify_add_watch(descriptor, directory, mask) }) {
            throw V4L2Error(operation: "inotify_add_watch", path: directory, code: error)
        }
        let known = CaptureDevice.all(in: directory, system: system)
        thread = try WakeableThread.forV4L2(name: "v4l2-watcher") { wakeup in
            var tracker = Tracker(directory: directory, system: system, known: known)
            tracker.run(inotifyDescriptor: descriptor, wakeDescriptor: wakeup.descriptor, handler: handler)
        }
        self.inotify = inotify
    }

    deinit {
        // The thread reads the inotify descriptor: it ends before the descriptor closes with the watcher.
        thread.stop()
    }

    /// Stops watching; no event is reported after this returns (unless called from the handler itself).
    package func cancel() {
        thread.stop()
    }
}

/// The watcher thread's state: which nodes are known capture devices.
private struct Tracker {
    let directory: String
    let system: any V4L2System
    var known: [String: CaptureDevice]

    init(directory: String, system: any V4L2System, known: [CaptureDevice]) {
        self.directory = directory
        self.system = system
        self.known = Dictionary(known.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func run(
        inotifyDescriptor: CInt,
        wakeDescriptor: CInt,
        handler: @Sendable (CaptureDeviceWatcher.Event) -> Void
    ) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            var descriptors = [
                pollfd(fd: inotifyDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let polled = valueOrErrno {
                descriptors.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, 2, -1) }
            }
            guard case .success(let ready) = polled, ready > 0, descriptors[1].revents == 0,
                descriptors[0].revents & Int16(POLLIN) != 0
            else { return }
            let read = valueOrErrno {
                buffer.withUnsafeMutableBytes { Glibc.read(inotifyDescriptor, $0.baseAddress, $0.count) }
            }
            guard case .success(let count) = read, count > 0 else {
                if case .failure(.wouldBlock) = read { continue }
                return
            }
            for (mask, name) in Self.parse(buffer.prefix(count)) {
                if let event = update(mask: mask, name: name) {
                    handler(event)
                }
            }
        }
    }

    /// Applies one inotify event to the known set, returning the announcement it causes, if any.
    mutating func update(mask: UInt32, name: String) -> CaptureDeviceWatcher.Event? {
        guard CaptureDevice.videoNodeNumber(name) != nil else { return nil }
        let path = directory + "/" + name
        if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
            return known.removeValue(forKey: path).map { .detached($0) }
        }
        guard known[path] == nil, let device = CaptureDevice.identify(path: path, system: system) else { return nil }
        known[path] = device
        return .attached(device)
    }

    /// Splits a read from an inotify descriptor into (mask, name) pairs, ignoring a truncated tail.
    static func parse(_ bytes: ArraySlice<UInt8>) -> [(UInt32, String)] {
        let headerSize = MemoryLayout<inotify_event>.size
        var events: [(UInt32, String)] = []
        var offset = bytes.startIndex
        while bytes.endIndex - offset >= headerSize {
            let header = bytes[offset..<offset + headerSize].withUnsafeBytes {
                $0.loadUnaligned(as: inotify_event.self)
            }
            let nameEnd = offset + headerSize + Int(header.len)
            guard nameEnd <= bytes.endIndex else { break }
            let name = String(decoding: bytes[(offset + headerSize)..<nameEnd].prefix { $0 != 0 }, as: UTF8.self)
            events.append((header.mask, name))
            offset = nameEnd
        }
        return events
    }
}
