import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

/// A camera attached by USB, reached over PTP's USB transport.
///
/// Each connection looks the camera up again: a camera plugged back in, which gets a new address, is found by its
/// serial number, or else by the port it is plugged into.
///
/// ```swift
/// let device = try USBCameraDevice.find("1:4")            // or a serial number, or nil for the only camera
/// let camera = PTPCamera(endpoint: PTPUSBEndpoint(device: device))
/// try await camera.connect()
/// ```
public struct PTPUSBEndpoint: PTPEndpoint {
    /// The camera, as it was last found.
    public var device: USBCameraDevice
    /// The transport's timeouts.
    public var configuration: PTPUSBTransport.Configuration
    /// Where the kernel lists USB devices; tests pass a tree of their own.
    public var sysfs: String

    /// Creates an endpoint.
    public init(
        device: USBCameraDevice, configuration: PTPUSBTransport.Configuration = PTPUSBTransport.Configuration(),
        sysfs: String = USBCameraDevice.sysfsDevices
    ) {
        self.device = device
        self.configuration = configuration
        self.sysfs = sysfs
    }

    /// The camera and its USB location, such as `Nikon DSC D750 (usb 1:4)`.
    public var description: String { device.description }

    /// Finds the camera again and opens its device file, on a thread of its own.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` when the camera is not attached,
    ///   `ViewfinderError/Code/permissionDenied` naming the udev rule to add, `ViewfinderError/Code/deviceBusy` when
    ///   another program holds it, `ViewfinderError/Code/io` when the USB devices cannot be listed.
    public func openTransport() async throws -> any PTPTransport {
        let endpoint = self
        return try await IOThread.run(name: "usb-open") {
            let attached = try USBCameraDevice.all(sysfs: endpoint.sysfs)
            guard let current = endpoint.device.sameCamera(in: attached) else {
                throw ViewfinderError(
                    .notFound, "\(endpoint.device) is not attached any more: plug it in and turn it on")
            }
            return try PTPUSBTransport(device: current, configuration: endpoint.configuration)
        }
    }
}

extension USBCameraDevice {
    /// This camera among `devices`: the one at the same address with the same IDs, else the one with the same serial
    /// number, else the only one with the same IDs on the same port.
    func sameCamera(in devices: [USBCameraDevice]) -> USBCameraDevice? {
        func sameModel(_ other: USBCameraDevice) -> Bool {
            other.vendorID == vendorID && other.productID == productID
        }
        if let here = devices.first(where: { $0.bus == bus && $0.address == address && sameModel($0) }) {
            return here
        }
        if let serialNumber, !serialNumber.isEmpty,
            let moved = devices.first(where: { $0.serialNumber == serialNumber && sameModel($0) })
        {
            return moved
        }
        return devices.first { $0.sysfsName == sysfsName && sameModel($0) }
    }

    /// The attached camera `selector` names: `BUS:ADDRESS`, a serial number, or `nil` for the only one.
    ///
    /// - Throws: As ``find(_:sysfs:)-(USBCameraSelector,_)``.
    public static func find(_ selector: String?, sysfs: String = sysfsDevices) throws(ViewfinderError)
        -> USBCameraDevice
    {
        try find(USBCameraSelector(selector ?? ""), sysfs: sysfs)
    }

    /// The attached camera a USB address's selector names: the only one, the one at a bus and device address (or,
    /// when none is there, whose serial number reads as that address), or the one with a serial number.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` when none matches, listing the cameras there are;
    ///   `ViewfinderError/Code/invalidArgument` for the only camera when several are attached;
    ///   `ViewfinderError/Code/io` when the USB devices cannot be listed.
    public static func find(_ selector: USBCameraSelector, sysfs: String = sysfsDevices) throws(ViewfinderError)
        -> USBCameraDevice
    {
        let devices = try all(sysfs: sysfs)
        let listed =
            devices.isEmpty ? "none is attached" : "attached: " + devices.map(\.description).joined(separator: ", ")
        switch selector {
        case .only:
            guard devices.count <= 1 else {
                throw ViewfinderError(
                    .invalidArgument, "several USB cameras are attached; name one as BUS:ADDRESS or serial (\(listed))")
            }
            guard let only = devices.first else {
                throw ViewfinderError(
                    .notFound, "no PTP camera is attached by USB: plug it in, turn it on and set it to PTP (or PC) mode"
                )
            }
            return only
        case .busAddress(let bus, let address):
            if let device = devices.first(where: { $0.bus == bus && $0.address == address }) {
                return device
            }
        case .serialNumber:
            break
        }
        guard let device = devices.first(where: { $0.serialNumber == selector.description }) else {
            throw ViewfinderError(.notFound, "no USB camera is at \(selector) or has that serial number (\(listed))")
        }
        return device
    }
}
