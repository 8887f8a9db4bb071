import Foundation
import Viewfinder

/// Finds the capture device a command line names: a `/dev/videoN` path, a number from `viewfinder devices`, or a part
/// of the device's name.
enum DeviceLookup {
    /// The `DEVICE` argument of the capture-device commands.
    static let argument = ArgumentSpec(
        name: "DEVICE",
        help:
            "A capture device: its path (/dev/video0 or video0), its number in 'viewfinder devices', or part of its name."
    )

    /// The device `text` names among `devices`.
    ///
    /// - Throws: ``CommandFailure`` saying what exists when nothing matches, or when a name matches several devices.
    static func device(named text: String, among devices: [CaptureDevice] = CameraSource.captureDevices) throws
        -> CaptureDevice
    {
        if text.hasPrefix("/") {
            return try device(atPath: text, among: devices)
        }
        guard !devices.isEmpty else { throw noDevices() }
        if let number = Int(text) {
            guard devices.indices.contains(number) else {
                throw CommandFailure(
                    "there is no capture device number \(number); this machine has \(count(devices)): \(list(devices))",
                    hint: "Run 'viewfinder devices' to see them with their numbers.", exitStatus: ExitStatus.notFound)
            }
            return devices[number]
        }
        if let device = devices.first(where: { $0.path == "/dev/" + text }) {
            return device
        }
        let matches = devices.filter { $0.name.range(of: text, options: .caseInsensitive) != nil }
        switch matches.count {
        case 1:
            return matches[0]
        case 0:
            throw CommandFailure(
                "no capture device has '\(text)' in its name; this machine has \(count(devices)): \(list(devices))",
                hint: "Give a device's path, number or part of its name.", exitStatus: ExitStatus.notFound)
        default:
            throw CommandFailure(
                "'\(text)' matches \(matches.count) capture devices: \(list(matches))",
                hint: "Give the device's path instead, such as \(matches[0].path).", exitStatus: ExitStatus.usage)
        }
    }

    /// The device at `path` (or at the node a link such as `/dev/v4l/by-id/...` points to).
    private static func device(atPath path: String, among devices: [CaptureDevice]) throws -> CaptureDevice {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        if let device = devices.first(where: { $0.path == path || $0.path == resolved }) {
            return device
        }
        let others = devices.isEmpty ? "" : "; capture devices: \(list(devices))"
        guard access(path, F_OK) == 0 else {
            if devices.isEmpty { throw noDevices(named: path) }
            throw CommandFailure(
                "there is no \(path)\(others)", hint: "Run 'viewfinder devices' to see the capture devices.",
                exitStatus: ExitStatus.notFound)
        }
        guard access(path, R_OK | W_OK) == 0 else {
            throw CommandFailure(
                "cannot open \(path): permission denied",
                hint: "Run as a user in the device's group (usually 'video'), or check the node's permissions.",
                exitStatus: ExitStatus.permissionDenied)
        }
        throw CommandFailure(
            "\(path) is not a video capture device (it may be a metadata, output or codec node)\(others)",
            hint: "Capture devices stream video through buffers; 'viewfinder devices' lists them.",
            exitStatus: ExitStatus.notFound)
    }

    /// The failure for a machine without capture devices, with what to check.
    ///
    /// - Parameter path: The node the user named, if any.
    static func noDevices(named path: String? = nil) -> CommandFailure {
        let nodes = videoNodes()
        let unreadable = nodes.filter { access($0, R_OK | W_OK) != 0 }
        var message = "there are no V4L2 capture devices on this machine"
        if let path { message = "there is no \(path), and " + message }
        let hint: String
        if !unreadable.isEmpty {
            hint = """
                \(unreadable.joined(separator: ", ")) cannot be opened by this user: add the user to the device's \
                group (usually 'video') and log in again.
                """
        } else if !nodes.isEmpty {
            hint =
                "\(nodes.joined(separator: ", ")) exist but none captures video (they may be metadata or codec nodes)."
        } else {
            hint = """
                Check that a camera is plugged in and its driver is loaded ('ls /dev/video*', 'lsmod | grep uvcvideo'). \
                Without a camera, the kernel's test driver makes one: 'sudo modprobe vivid'.
                """
        }
        return CommandFailure(message, hint: hint, exitStatus: ExitStatus.unavailable)
    }

    /// The `/dev/videoN` nodes, whether or not they capture or can be opened.
    private static func videoNodes() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []
        let numbered = names.compactMap { name in CaptureDevice.videoNodeNumber(name).map { ($0, name) } }
        return numbered.sorted { $0.0 < $1.0 }.map { "/dev/" + $0.1 }
    }

    private static func count(_ devices: [CaptureDevice]) -> String {
        devices.count == 1 ? "one" : "\(devices.count)"
    }

    private static func list(_ devices: [CaptureDevice]) -> String {
        devices.map(\.description).joined(separator: ", ")
    }
}
