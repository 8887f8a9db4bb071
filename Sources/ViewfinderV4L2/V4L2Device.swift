import CV4L2

#if canImport(Glibc)
import Glibc
#endif

/// An open V4L2 device node: a descriptor and typed wrappers over the ioctls made on it.
///
/// The descriptor is closed when the last reference goes. The kernel serializes ioctls on one descriptor, so the
/// wrappers may be called from any thread.
package final class V4L2Device: Sendable {
    /// The device node, such as `/dev/video0`.
    package let path: String
    /// The open descriptor.
    package let descriptor: CInt
    /// The system calls the wrappers go through.
    package let system: any V4L2System

    /// Opens a device node for reading and writing, without blocking on `VIDIOC_DQBUF`.
    package init(path: String, system: any V4L2System = LinuxV4L2System()) throws(V4L2Error) {
        let result = system.open(path, flags: O_RDWR | O_NONBLOCK)
        guard result >= 0 else { throw V4L2Error(operation: "open", path: path, code: .init(rawValue: -result)) }
        self.path = path
        self.descriptor = result
        self.system = system
    }

    deinit {
        system.close(descriptor)
    }

    /// Makes an ioctl with a typed argument, turning a negative result into a ``V4L2Error`` named after `operation`.
    @discardableResult
    package func control<Argument>(_ request: UInt, _ operation: String, _ argument: inout Argument) throws(V4L2Error)
        -> CInt
    {
        let result = withUnsafeMutableBytes(of: &argument) { system.ioctl(descriptor, request, $0.baseAddress!) }
        guard result >= 0 else { throw V4L2Error(operation: operation, path: path, code: .init(rawValue: -result)) }
        return result
    }

    /// What the driver says about the device and this node (`VIDIOC_QUERYCAP`).
    package func capability() throws(V4L2Error) -> V4L2Capability {
        var capability = v4l2_capability()
        try control(cv4l2_VIDIOC_QUERYCAP, "VIDIOC_QUERYCAP", &capability)
        return V4L2Capability(capability)
    }
}

/// What `VIDIOC_QUERYCAP` reports about a device node.
package struct V4L2Capability: Hashable, Sendable {
    /// The driver's name, such as `vivid` or `uvcvideo`.
    package var driver: String
    /// The device's name, such as `vivid` or `HD Pro Webcam C920`.
    package var card: String
    /// Where the device sits, such as `platform:vivid-000` or `usb-0000:00:14.0-1`.
    package var bus: String
    /// The capabilities of this node (`device_caps`, or `capabilities` on drivers too old to report them).
    package var capabilities: UInt32

    /// Reads the C structure.
    package init(_ capability: v4l2_capability) {
        driver = V4L2Capability.string(capability.driver)
        card = V4L2Capability.string(capability.card)
        bus = V4L2Capability.string(capability.bus_info)
        let hasDeviceCaps = capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
        capabilities = hasDeviceCaps ? capability.device_caps : capability.capabilities
    }

    /// Whether the node captures single-planar video and streams it through buffers, the kind Viewfinder reads.
    package var canCaptureVideo: Bool {
        let needed = UInt32(V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_STREAMING)
        return capabilities & needed == needed
    }

    /// Decodes a NUL-terminated C character array imported as a tuple.
    package static func string<Tuple>(_ tuple: Tuple) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
