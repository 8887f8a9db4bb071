import ViewfinderCore
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Watches for PTP and MTP cameras being plugged in and out, and tells its observers.
///
/// The monitor hears the kernel's device events on a netlink socket (no udev needed) and looks at the attached
/// devices again when a USB device or interface comes or goes, and once more shortly after, as a camera's pipes
/// appear a moment after its interface. It also looks every `rescanInterval`, which keeps it right where the
/// kernel's events do not arrive (in a container's own network namespace) or were lost.
///
/// ```swift
/// let monitor = USBCameraMonitor()
/// let token = monitor.addObserver { changes in
///     for change in changes {
///         switch change {
///         case .attached(let camera): print("plugged in: \(camera)")
///         case .detached(let camera): print("unplugged: \(camera)")
///         }
///     }
/// }
/// try monitor.start()       // the cameras already attached come first, as attached
/// ```
///
/// Observers are called one at a time, in order, on the monitor's thread; changes that come while an observer is slow
/// are handed over together.
public final class USBCameraMonitor: Sendable {
    /// A camera plugged in (or found attached when the monitor started) or out; a camera plugged in again comes
    /// back at a new address.
    public typealias Change = DeviceChange<USBCameraDevice>

    private struct State {
        var thread: WakeableThread?
        var listensToKernel = false
    }

    private let scanner: Scanner
    private let state = Locked(State())

    /// Creates a monitor, not yet watching.
    ///
    /// - Parameters:
    ///   - sysfs: The directory listing USB devices; tests pass a tree of their own.
    ///   - deviceFiles: The directory of usbdevfs device files.
    ///   - rescanInterval: How often to look at the devices without being told of a change.
    public init(
        sysfs: String = USBCameraDevice.sysfsDevices, deviceFiles: String = "/dev/bus/usb",
        rescanInterval: Duration = .seconds(3)
    ) {
        scanner = Scanner(
            sysfs: sysfs, deviceFiles: deviceFiles, rescanInterval: max(rescanInterval, .milliseconds(10)))
    }

    deinit {
        stop()
    }

    /// The cameras attached when the monitor last looked; empty before ``start()``.
    public var cameras: [USBCameraDevice] { scanner.cameras.withLock { $0 } }

    /// Why the last look at the attached devices failed, or `nil` when it succeeded.
    ///
    /// A look that fails (the process has no file descriptor left, say) changes nothing: ``cameras`` stays as the
    /// last look that succeeded found it, no camera is told as unplugged, and the monitor looks again shortly.
    public var scanError: ViewfinderError? { scanner.error.withLock { $0 } }

    /// Whether the kernel's device events reach the monitor; when `false` it notices changes only as it looks every
    /// `rescanInterval`.
    public var listensToKernel: Bool { state.withLock { $0.listensToKernel } }

    /// Whether the monitor is watching.
    public var isWatching: Bool { state.withLock { $0.thread != nil } }

    /// Calls `observer` with each batch of changes, in order, until the returned token is released.
    ///
    /// Changes that come while an observer is busy wait for it, the newest 1024 of them; older ones are dropped and
    /// counted in ``droppedChangeCount``, and ``cameras`` stays whole.
    public func addObserver(_ observer: @escaping @Sendable ([Change]) -> Void) -> ObservationToken {
        scanner.observers.addObserver(observer)
    }

    /// How many changes were dropped, oldest first, because observers were busy while more than 1024 waited.
    public var droppedChangeCount: Int { scanner.observers.droppedCount }

    /// Each change from now on, one at a time and in order, as an async sequence.
    ///
    /// ```swift
    /// for await change in monitor.changes() {
    ///     print(change)
    /// }
    /// ```
    public func changes() -> AsyncStream<Change> {
        AsyncStream(observing: { observer in addObserver { changes in changes.forEach(observer) } })
    }

    /// Lists the cameras attached now and starts watching; does nothing while already watching.
    ///
    /// The observers hear first what the listing found that the monitor did not know (every camera, the first time)
    /// as `.attached`, and what went while it was stopped as `.detached`; then each change.
    ///
    /// - Throws: `ViewfinderError` with `ViewfinderError/Code/io` when no thread could be started.
    public func start() throws(ViewfinderError) {
        try state.withLock { (state) throws(ViewfinderError) in
            guard state.thread == nil else { return }
            let events = try? KernelDeviceEventSocket()
            let scanner = scanner
            scanner.rescan()
            let started = Result { () throws(Errno) in
                try WakeableThread(name: "usb-monitor") { wakeup in scanner.watch(events: events, wakeup: wakeup) }
            }
            switch started {
            case .success(let thread):
                state.thread = thread
            case .failure(let error):
                throw ViewfinderError(.io, "cannot start watching for USB cameras", errno: error.rawValue)
            }
            state.listensToKernel = events != nil
        }
    }

    /// Stops watching; no observer is called after this returns, unless it is called from an observer.
    public func stop() {
        let thread = state.withLock { state in
            defer { state.thread = nil }
            return state.thread
        }
        thread?.stop()
    }

    /// What the watching thread keeps: the cameras last listed, the changes not yet told, and the observers.
    private final class Scanner: Sendable {
        let sysfs: String
        let deviceFiles: String
        let rescanInterval: Duration
        let cameras = Locked<[USBCameraDevice]>([])
        /// Why the last look failed, if it did.
        let error = Locked<ViewfinderError?>(nil)
        /// Changes found and not yet handed to the observers, in order.
        let pending = Locked<[Change]>([])
        let observers = CameraObserverRegistry<[Change]>(keepingNewest: 1024)

        init(sysfs: String, deviceFiles: String, rescanInterval: Duration) {
            self.sysfs = sysfs
            self.deviceFiles = deviceFiles
            self.rescanInterval = rescanInterval
        }

        /// Waits for device events, the next planned look, or the wake-up that stops the thread.
        func watch(events: KernelDeviceEventSocket?, wakeup: Wakeup) {
            var nextRescan = ContinuousClock.now + rescanInterval
            // After an event, a look at once and one a little later, when the camera's pipes have appeared.
            var settling: [ContinuousClock.Instant] = []
            // The cameras found by `start()`, told first.
            deliver()
            while true {
                var requests = [Poll.Request(wakeup.descriptor, for: Poll.readable)]
                if let events { requests.append(Poll.Request(events.rawDescriptor, for: Poll.readable)) }
                let deadline = min(settling.min() ?? nextRescan, nextRescan)
                guard let ready = try? Poll.wait(requests, until: deadline), ready[0] == 0 else { return }
                if let events, ready.count > 1, ready[1] != 0 {
                    let (received, overflowed) = events.drain()
                    if overflowed || received.contains(where: \.concernsUSBDevices) {
                        let now = ContinuousClock.now
                        settling = [now + .milliseconds(20), now + .milliseconds(500)]
                    }
                }
                let now = ContinuousClock.now
                guard now >= min(settling.min() ?? nextRescan, nextRescan) else { continue }
                settling.removeAll { $0 <= now }
                nextRescan = now + rescanInterval
                if !rescan() { settling.append(now + Self.retryInterval) }
                deliver()
            }
        }

        /// How soon a look that failed is tried again.
        static let retryInterval = Duration.milliseconds(250)

        /// Lists the attached cameras and queues what changed since the last look; returns whether it could look.
        @discardableResult
        func rescan() -> Bool {
            let now: [USBCameraDevice]
            do {
                now = try USBCameraDevice.all(sysfs: sysfs, deviceFiles: deviceFiles)
                self.error.withLock { $0 = nil }
            } catch {
                self.error.withLock { $0 = error }
                return false
            }
            cameras.withLock { cameras in
                let changes = USBCameraMonitor.changes(from: cameras, to: now)
                cameras = now
                // Queued under the same lock, so changes are told in the order they were found.
                if !changes.isEmpty { pending.withLock { $0 += changes } }
            }
            return true
        }

        /// Hands the queued changes to the observers, outside any lock; only the watching thread calls it, so batches
        /// are told in the order they were found.
        func deliver() {
            let changes = pending.withLock { pending in
                defer { pending = [] }
                return pending
            }
            if !changes.isEmpty { observers.notify(changes) }
        }
    }

    /// The cameras that went (first) and came between two lists; a camera at a new address, or whose interface
    /// changed, counts as one that went and one that came.
    static func changes(from old: [USBCameraDevice], to new: [USBCameraDevice]) -> [Change] {
        let before = Set(old)
        let after = Set(new)
        return old.filter { !after.contains($0) }.map(Change.detached)
            + new.filter { !before.contains($0) }.map(
                Change.attached)
    }
}
