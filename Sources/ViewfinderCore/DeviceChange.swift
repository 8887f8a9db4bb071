/// A device came or went: the one shape in which Viewfinder's watchers report cameras plugged in and out, and capture
/// devices that appear and go away.
///
/// ```swift
/// func describe(_ change: DeviceChange<some CustomStringConvertible & Hashable & Sendable>) -> String {
///     switch change {
///     case .attached(let device): "plugged in: \(device)"
///     case .detached(let device): "unplugged: \(device)"
///     }
/// }
/// ```
public enum DeviceChange<Device: Hashable & Sendable>: Hashable, Sendable {
    /// The device appeared, or the watcher found it there when it started.
    case attached(Device)
    /// The device is gone; one that comes back is reported as attached again.
    case detached(Device)

    /// The device that came or went.
    public var device: Device {
        switch self {
        case .attached(let device), .detached(let device): device
        }
    }
}
