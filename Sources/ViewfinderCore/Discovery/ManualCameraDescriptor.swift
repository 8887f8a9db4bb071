/// Where to look for a camera, and what kind of camera it is, for manual discovery.
///
/// ```swift
/// manualDiscovery.discover(.cameraAtSuggestedGateway(.canon)) { result in … }
/// manualDiscovery.discover(.cameraType(.nikon, atGatewayOfInterface: "wlan0")) { result in … }
/// manualDiscovery.discover(.cameraType(.nikon, atAddress: "192.168.1.1", port: 15740)) { result in … }
/// manualDiscovery.discover(.cameraAttachedByUSB("1:4")) { result in … }
/// ```
public struct ManualCameraDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// Where the camera is.
    public enum Location: Hashable, Sendable {
        /// The gateway of the default route.
        case suggestedGateway
        /// The gateway of a network interface.
        case gatewayOfInterface(String)
        /// A host name or IP address.
        case address(String)
        /// A camera attached by USB.
        case usb(USBCameraSelector)
    }

    /// The kind of camera.
    public var family: CameraFamily
    /// Where the camera is.
    public var location: Location
    /// The camera's TCP port; the family's usual port when `nil`.
    public var port: UInt16?
    /// Where the camera's device description is, for a family that reads one: its path for a Sony body that speaks
    /// the Camera Remote API, its URL for a Lumix (see `CameraAddress`); the family's usual places when `nil`.
    public var path: String?

    /// Creates a descriptor.
    public init(family: CameraFamily, location: Location, port: UInt16? = nil, path: String? = nil) {
        self.family = family
        self.location = location
        self.port = port
        self.path = path
    }

    /// A camera of `family` at the gateway of the default route, as when the computer joined the camera's own WiFi
    /// network and has no other.
    public static func cameraAtSuggestedGateway(_ family: CameraFamily) -> ManualCameraDescriptor {
        ManualCameraDescriptor(family: family, location: .suggestedGateway)
    }

    /// A camera of `family` at the gateway of `interface`, such as the WiFi interface joined to the camera's
    /// network while another interface has the default route.
    public static func cameraType(_ family: CameraFamily, atGatewayOfInterface interface: String)
        -> ManualCameraDescriptor
    {
        ManualCameraDescriptor(family: family, location: .gatewayOfInterface(interface))
    }

    /// A camera of `family` at a known host name or IP address, on `port` or the family's usual port.
    public static func cameraType(_ family: CameraFamily, atAddress host: String, port: UInt16? = nil)
        -> ManualCameraDescriptor
    {
        ManualCameraDescriptor(family: family, location: .address(host), port: port)
    }

    /// The camera attached by USB that `selector` names: `BUS:ADDRESS` (such as `1:4`), a serial number, or `nil`
    /// for the only one attached.
    ///
    /// The USB transport's connector answers for it; the camera's own device information chooses its dialect,
    /// whatever the family.
    public static func cameraAttachedByUSB(_ selector: String? = nil) -> ManualCameraDescriptor {
        ManualCameraDescriptor(family: .genericPTPIP, location: .usb(USBCameraSelector(selector ?? "")))
    }

    /// A camera of `family` at an address of either kind, such as one a searcher found.
    public static func camera(_ family: CameraFamily, at address: CameraAddress) -> ManualCameraDescriptor {
        switch address {
        case .network(let host, let port, let path):
            ManualCameraDescriptor(family: family, location: .address(host), port: port, path: path)
        case .usb(let selector):
            ManualCameraDescriptor(family: family, location: .usb(selector))
        }
    }

    /// "a Canon camera at the default gateway", and the like, for messages.
    public var description: String {
        let place: String
        switch location {
        case .usb(.only): return "the camera attached by USB"
        case .usb(let selector): return "the USB camera \(selector)"
        case .suggestedGateway: place = "the default gateway"
        case .gatewayOfInterface(let interface): place = "the gateway of \(interface)"
        case .address(let host): place = host
        }
        return "a \(family) camera at \(place)\(port.map { " port \($0)" } ?? "")"
    }
}
