import ViewfinderCore
import ViewfinderSystem

/// Reports the PTP and MTP cameras attached by USB to `CameraDiscovery`, as they are plugged in and out.
///
/// `CameraDiscovery.shared` registers one, so `beginSearching()` lists USB cameras beside the network's, found by
/// `DiscoveryMethod/usb` at its bus and device (`usb:1:4`), and its observers hear of cameras plugged in or out.
/// `CameraDiscovery.camera(for:)` opens such a camera through ``PTPUSBCameraConnector``.
///
/// ```swift
/// let discovery = CameraDiscovery(connectors: [PTPUSBCameraConnector()])
/// discovery.register(USBCameraSearcher())
/// let token = discovery.addDiscoveryObserver { change in print(change) }
/// discovery.beginSearching()
/// ```
public final class USBCameraSearcher: CameraSearcher {
    private struct Watch {
        var monitor: USBCameraMonitor
        var token: ObservationToken
    }

    private let sysfs: String
    private let rescanInterval: Duration
    private let watch = Locked<Watch?>(nil)

    /// Creates a searcher.
    ///
    /// - Parameters:
    ///   - sysfs: The directory listing USB devices; tests pass a tree of their own.
    ///   - rescanInterval: How often to look at the devices without being told of a change.
    public init(sysfs: String = USBCameraDevice.sysfsDevices, rescanInterval: Duration = .seconds(3)) {
        self.sysfs = sysfs
        self.rescanInterval = rescanInterval
    }

    /// Reports the cameras attached now, then each one plugged in or out, until ``stopSearching()``.
    ///
    /// - Throws: `ViewfinderError` when no thread could be started to watch.
    public func startSearching(report: @escaping @Sendable (CameraSearchEvent) -> Void) throws {
        stopSearching()
        let monitor = USBCameraMonitor(sysfs: sysfs, rescanInterval: rescanInterval)
        let token = monitor.addObserver { changes in
            for change in changes {
                switch change {
                case .attached(let device):
                    report(.seen(key: Self.key(of: device), camera: device.discovered, lifetime: Self.lifetime))
                case .detached(let device):
                    report(.gone(key: Self.key(of: device)))
                }
            }
        }
        try monitor.start()
        watch.withLock { $0 = Watch(monitor: monitor, token: token) }
    }

    /// Stops watching; nothing is reported after it returns.
    public func stopSearching() {
        guard
            let stopped = watch.withLock({ watch in
                defer { watch = nil }
                return watch
            })
        else { return }
        stopped.token.cancel()
        stopped.monitor.stop()
    }

    /// An attached camera stays found until it is unplugged, however long that is.
    private static let lifetime = Duration.seconds(100 * 365 * 86_400)

    /// The key a camera is reported under: where it is, which a replug changes.
    private static func key(of device: USBCameraDevice) -> String {
        "usb:\(device.sysfsName)@\(device.location)"
    }
}

extension USBCameraDevice {
    /// The camera as discovery lists it: found by USB at `usb:BUS:ADDRESS`, under its serial number where it gives
    /// one.
    public var discovered: DiscoveredCamera {
        DiscoveredCamera(
            id: serialNumber.map { "usb-\($0)" } ?? "usb-\(sysfsName)", family: family, manufacturer: manufacturer,
            model: product, name: name, serialNumber: serialNumber,
            address: .usb(.busAddress(bus: bus, address: address)),
            foundBy: .usb)
    }
}
