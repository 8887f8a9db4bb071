import CViewfinderUSB
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// One of the kernel's device events (a uevent), such as a USB device added or an interface removed.
///
/// The kernel sends each as `ACTION@DEVPATH` followed by `KEY=VALUE` lines, each ending in a zero byte.
struct KernelDeviceEvent: Hashable, Sendable {
    /// What happened: `add`, `remove`, `bind`, `unbind`, `change` and the like.
    var action: String
    /// The device's path under `/sys`, such as `/devices/platform/dummy_hcd.0/usb1/1-1`.
    var path: String
    /// The subsystem, such as `usb`.
    var subsystem: String
    /// The kind of device within the subsystem, such as `usb_device` or `usb_interface`; empty when not given.
    var deviceType: String

    /// Whether the event may change which USB cameras are attached: a USB device or interface came, went, or gained
    /// or lost its driver.
    var concernsUSBDevices: Bool {
        subsystem == "usb" && ["add", "remove", "bind", "unbind", "change"].contains(action)
    }

    /// Reads an event from a message of the kernel's; `nil` for one that is not an event (such as udev's own
    /// messages, which start with `libudev`).
    init?(message: some Collection<UInt8>) {
        let fields = message.split(separator: 0, omittingEmptySubsequences: true).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard let header = fields.first, let at = header.firstIndex(of: "@") else { return nil }
        var values: [String: String] = [:]
        for field in fields.dropFirst() {
            guard let equals = field.firstIndex(of: "=") else { continue }
            values[String(field[..<equals])] = String(field[field.index(after: equals)...])
        }
        action = values["ACTION"] ?? String(header[..<at])
        path = values["DEVPATH"] ?? String(header[header.index(after: at)...])
        guard let subsystem = values["SUBSYSTEM"], !action.isEmpty, !path.isEmpty else { return nil }
        self.subsystem = subsystem
        deviceType = values["DEVTYPE"] ?? ""
    }

    /// Creates an event from its parts.
    init(action: String, path: String, subsystem: String, deviceType: String = "") {
        self.action = action
        self.path = path
        self.subsystem = subsystem
        self.deviceType = deviceType
    }
}

/// A netlink socket on which the kernel reports devices as they come and go.
///
/// It works without udev (in containers and small systems) but only in the first network namespace: elsewhere it
/// opens and stays silent, so its readers also look again now and then.
final class KernelDeviceEventSocket: Sendable {
    private let descriptor: FileDescriptor

    /// The largest message read; the kernel's are at most a few kilobytes.
    private static let messageCapacity = 8192

    /// Opens the socket, non-blocking.
    ///
    /// - Throws: The `errno` of `socket(2)` or `bind(2)`.
    init() throws(Errno) {
        let result = cusb_open_uevent_socket()
        guard result >= 0 else { throw Errno(rawValue: -result) }
        descriptor = FileDescriptor(unsafeAdopting: result)
    }

    /// The descriptor to wait on for `Poll.readable`.
    var rawDescriptor: CInt { descriptor.rawValue }

    /// The events waiting, read until none is left; `overflowed` says that some were lost because they came faster
    /// than they were read, after which the reader should look at the devices afresh.
    func drain() -> (events: [KernelDeviceEvent], overflowed: Bool) {
        var events: [KernelDeviceEvent] = []
        var overflowed = false
        var buffer = [UInt8](repeating: 0, count: Self.messageCapacity)
        // Bounded: a flood of events cannot keep the reader here for ever.
        for _ in 0..<1024 {
            let received = buffer.withUnsafeMutableBytes {
                cusb_receive_uevent(descriptor.rawValue, $0.baseAddress, UInt($0.count))
            }
            if received == -Int(ENOBUFS) {
                overflowed = true
                continue
            }
            if received == -Int(EINTR) { continue }
            guard received >= 0 else { break }
            if received > 0, let event = KernelDeviceEvent(message: buffer.prefix(received)) {
                events.append(event)
            }
        }
        return (events, overflowed)
    }
}
