import ViewfinderCore
import ViewfinderPTP
import ViewfinderSystem

/// Makes `PTPCamera`s for cameras attached by USB, for discovery: it answers for addresses that start with `usb:`
/// and leaves every other address to the next connector.
///
/// The address names the camera as `usb:BUS:ADDRESS` (as ``USBCameraSearcher`` reports it), `usb:SERIAL`, or `usb:`
/// alone for the only camera attached. `CameraDiscovery.shared` asks it before the network's connectors:
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

    /// Finds the attached camera a `usb:` address names and returns a camera for it, not yet connected; the family
    /// and port are not needed, as the camera's own device information chooses its dialect.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for an address that does not start with `usb:`;
    ///   `ViewfinderError/Code/notFound` when no attached camera matches, listing those there are;
    ///   `ViewfinderError/Code/invalidArgument` for `usb:` alone when several are attached.
    public func camera(of family: CameraFamily, at host: String, port: UInt16?) async throws -> any Camera {
        guard let selector = ManualCameraDescriptor.usbSelector(inAddress: host).map(String.init) else {
            throw ViewfinderError(.notAvailable, "\(host) is not a USB address (usb:BUS:ADDRESS or usb:SERIAL)")
        }
        let sysfs = sysfs
        let device = try await IOThread.run(name: "usb-find") {
            try USBCameraDevice.find(selector.isEmpty ? nil : selector, sysfs: sysfs)
        }
        return PTPCamera(
            endpoint: PTPUSBEndpoint(device: device, configuration: transport, sysfs: sysfs),
            configuration: configuration)
    }
}
