import ViewfinderCore
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Which capture devices a position assignment is for: a node, part of a name, or a bus.
public enum CaptureDeviceMatch: Hashable, Sendable, CustomStringConvertible {
    /// The device at this node, such as `/dev/video2`.
    case path(String)
    /// Devices whose name contains this text, ignoring case, such as `Integrated`.
    case nameContaining(String)
    /// Devices on this bus, or on a bus that starts with it, such as `usb-0000:00:14.0-2`.
    case bus(String)

    /// Whether `device` is one this matches.
    public func matches(_ device: CaptureDevice) -> Bool {
        switch self {
        case .path(let path): device.path == path
        case .nameContaining(let text): device.name.lowercased().contains(text.lowercased())
        case .bus(let bus): device.bus.hasPrefix(bus)
        }
    }

    /// `path=…`, `name=…` or `bus=…`, as ``CameraSource/positionsVariable`` writes it.
    public var description: String {
        switch self {
        case .path(let path): "path=\(path)"
        case .nameContaining(let text): "name=\(text)"
        case .bus(let bus): "bus=\(bus)"
        }
    }
}

/// The positions assigned to devices, first by the app, then from the environment.
enum CaptureDevicePositions {
    /// The assignments, newest first; the environment's come last.
    static let assignments = Locked<[(CaptureDeviceMatch, CaptureDevicePosition)]>(
        parse(getenv(CameraSource.positionsVariable).map { String(cString: $0) } ?? ""))

    /// The position assigned to `device`, if any.
    static func position(of device: CaptureDevice) -> CaptureDevicePosition? {
        assignments.withLock { rules in rules.first { $0.0.matches(device) }?.1 }
    }

    /// Reads `front:name=Integrated;back:path=/dev/video2`; entries that do not parse are left out.
    static func parse(_ text: String) -> [(CaptureDeviceMatch, CaptureDevicePosition)] {
        text.split(separator: ";").compactMap { entry in
            let parts = entry.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let position: CaptureDevicePosition
            switch parts[0].trimmingSpaces.lowercased() {
            case "front": position = .front
            case "back": position = .back
            case "unspecified": position = .unspecified
            default: return nil
            }
            let rule = parts[1].split(separator: "=", maxSplits: 1)
            guard rule.count == 2, !rule[1].isEmpty else { return nil }
            let value = String(rule[1])
            switch rule[0].trimmingSpaces.lowercased() {
            case "path": return (.path(value), position)
            case "name": return (.nameContaining(value), position)
            case "bus": return (.bus(value), position)
            default: return nil
            }
        }
    }
}

extension Substring {
    /// The text without spaces at either end.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}

extension CameraSource {
    /// The environment variable that assigns positions without code, such as
    /// `VIEWFINDER_CAMERA_POSITIONS="front:name=Integrated Camera;back:path=/dev/video2"`; read once, at the first
    /// look at a device's position.
    public static let positionsVariable = "VIEWFINDER_CAMERA_POSITIONS"

    /// Says which devices face where, for ``captureDevice(for:)`` and for the mirroring of their frames; later
    /// assignments come before earlier ones and before ``positionsVariable``'s.
    ///
    /// Linux rarely knows where a webcam faces: a device's position is what the app or ``positionsVariable``
    /// assigns, else what the driver reports in `V4L2_CID_CAMERA_ORIENTATION` (platform cameras of phones and
    /// laptops), else `.unspecified`. Frames of a `.front` device are
    /// marked mirrored.
    ///
    /// ```swift
    /// CameraSource.assignPosition(.front, to: .nameContaining("Integrated Camera"))
    /// let selfie = CameraSource.captureDevice(for: .front)
    /// ```
    public static func assignPosition(_ position: CaptureDevicePosition, to match: CaptureDeviceMatch) {
        CaptureDevicePositions.assignments.withLock { $0.insert((match, position), at: 0) }
    }

    /// Forgets every position assignment, the environment's included.
    public static func removePositionAssignments() {
        CaptureDevicePositions.assignments.withLock { $0.removeAll() }
    }
}
