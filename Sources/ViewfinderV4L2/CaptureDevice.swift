import CV4L2
import ViewfinderCore

/// A V4L2 node that captures video: where it is and what its driver says about it.
public struct CaptureDevice: Hashable, Sendable, CustomStringConvertible {
    /// The device node, such as `/dev/video0`.
    public var path: String
    /// The device's name, such as `HD Pro Webcam C920`.
    public var name: String
    /// Where the device sits, such as `usb-0000:00:14.0-1` or `platform:vivid-000`.
    public var bus: String
    /// The driver's name, such as `uvcvideo`.
    public var driver: String
    /// The node's `V4L2_CAP_*` capability bits.
    public var capabilities: UInt32
    /// Where the driver says the device faces (`V4L2_CID_CAMERA_ORIENTATION`); `.unspecified`
    /// when it does not say, as most USB webcams do not.
    public var reportedPosition: CaptureDevicePosition

    /// Describes a device.
    public init(
        path: String, name: String, bus: String, driver: String, capabilities: UInt32,
        reportedPosition: CaptureDevicePosition = .unspecified
    ) {
        self.path = path
        self.name = name
        self.bus = bus
        self.driver = driver
        self.capabilities = capabilities
        self.reportedPosition = reportedPosition
    }

    /// The name and the node, such as `vivid (/dev/video0)`.
    public var description: String { "\(name) (\(path))" }
}

extension CaptureDevice {
    /// Describes a node from what `VIDIOC_QUERYCAP` said, and where its driver says it faces.
    package init(path: String, capability: V4L2Capability, reportedPosition: CaptureDevicePosition = .unspecified) {
        self.init(
            path: path,
            name: capability.card,
            bus: capability.bus,
            driver: capability.driver,
            capabilities: capability.capabilities,
            reportedPosition: reportedPosition
        )
    }

    /// The capture devices in a directory, in node-number order.
    ///
    /// Every `videoN` node that captures single-planar video through streaming buffers. Nodes that cannot be opened
    /// or queried are left out.
    package static func all(in directory: String = "/dev", system: any V4L2System = LinuxV4L2System())
        -> [CaptureDevice]
    {
        let numbered = system.contentsOfDirectory(directory).compactMap { name in
            videoNodeNumber(name).map { ($0, name) }
        }
        return numbered.sorted { $0.0 < $1.0 }.compactMap { identify(path: directory + "/" + $0.1, system: system) }
    }

    /// Opens a node and describes it if it captures video; `nil` otherwise.
    package static func identify(path: String, system: any V4L2System) -> CaptureDevice? {
        guard let device = try? V4L2Device(path: path, system: system), let capability = try? device.capability(),
            capability.canCaptureVideo
        else { return nil }
        let orientation = try? device.value(ofControl: V4L2ControlID.cameraOrientation)
        let position: CaptureDevicePosition =
            switch orientation {
            case Int32(V4L2_CAMERA_ORIENTATION_FRONT): .front
            case Int32(V4L2_CAMERA_ORIENTATION_BACK): .back
            default: .unspecified
            }
        return CaptureDevice(path: path, capability: capability, reportedPosition: position)
    }

    /// The number of a `videoN` node name, or `nil` for any other name.
    package static func videoNodeNumber(_ name: String) -> Int? {
        guard name.hasPrefix("video") else { return nil }
        let digits = name.dropFirst(5)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int(digits)
    }
}
