import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

/// Makes `PTPCamera`s for cameras attached by USB, for discovery: the connector for USB addresses.
///
/// The address names the camera by its bus and device (as ``USBCameraSearcher`` reports it), its serial number, or
/// as the only camera attached. `CameraDiscovery.shared` has it beside the network's connectors:
///
/// ```swift
/// let camera = try await CameraDiscovery.shared.manualDiscovery.discover(.cameraAttachedByUSB("1:4"))
/// try await camera.connect()
/// ```
public struct PTPUSBCameraConnector: CameraConnector {
    /// The USB transport's timeouts for the cameras made.
    public var transport: PTPUSBTransport.Configuration
    /// The configuration of the cameras made.
    public var configuration: PTPCamera.Configuration
    /// Where the kernel lists USB devices; tests pass a tree of their own.
    public var sysfs: String

    /// Creates a connector.
    public init(
        transport: PTPUSBTransport.Configuration = PTPUSBTransport.Configuration(),
        configuration: PTPCamera.Configuration = PTPCamera.Configuration(),
        sysfs: String = USBCameraDevice.sysfsDevices
    ) {
        self.transport = transport
        self.configuration = configuration
        self.sysfs = sysfs
    }

    /// USB addresses.
    public var addressKind: CameraAddress.Kind { .usb }

    /// Finds the attached camera a USB address names and returns a camera for it, not yet connected; the family is
    /// not needed, as the camera's own device information chooses its dialect.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for an address that is not a USB one;
    ///   `ViewfinderError/Code/notFound` when no attached camera matches, listing those there are;
    ///   `ViewfinderError/Code/invalidArgument` for the only camera when several are attached.
    public func camera(of family: CameraFamily, at address: CameraAddress) async throws -> any Camera {
        guard case .usb(let selector) = address else {
            throw ViewfinderError(.notAvailable, "\(address) is not a USB address")
        }
        let sysfs = sysfs
        let device = try await IOThread.run(name: "usb-find") {
            try USBCameraDevice.find(selector, sysfs: sysfs)
        }
        return PTPCamera(
            endpoint: PTPUSBEndpoint(device: device, configuration: transport, sysfs: sysfs),
            configuration: configuration)
    }
}
