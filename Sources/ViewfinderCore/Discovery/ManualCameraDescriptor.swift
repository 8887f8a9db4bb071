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
    }

    /// The kind of camera.
    public var family: CameraFamily
    /// Where the camera is.
    public var location: Location
    /// The camera's TCP port; the family's usual port when `nil`.
    public var port: UInt16?

    /// Creates a descriptor.
    public init(family: CameraFamily, location: Location, port: UInt16? = nil) {
        self.family = family
        self.location = location
        self.port = port
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
    /// Its address is `usb:` and the selector, which the USB transport's connector answers for; the camera's own
    /// device information chooses its dialect, whatever the family.
    public static func cameraAttachedByUSB(_ selector: String? = nil) -> ManualCameraDescriptor {
        ManualCameraDescriptor(family: .genericPTPIP, location: .address(usbAddress(selector ?? "")))
    }

    /// The address of the camera attached by USB that `selector` names: `usb:1:4`, `usb:SERIAL`, or `usb:` for the
    /// only one.
    public static func usbAddress(_ selector: String) -> String {
        "usb:\(selector)"
    }

    /// What a USB address names after its `usb:` (`1:4`, a serial number, or empty for the only camera); `nil` for
    /// any other address.
    public static func usbSelector(inAddress host: String) -> Substring? {
        host.hasPrefix("usb:") ? host.dropFirst("usb:".count) : nil
    }

    /// "a Canon camera at the default gateway", and the like, for messages.
    public var description: String {
        if case .address(let host) = location, let selector = Self.usbSelector(inAddress: host) {
            return selector.isEmpty ? "the camera attached by USB" : "the USB camera \(selector)"
        }
        let place =
            switch location {
            case .suggestedGateway: "the default gateway"
            case .gatewayOfInterface(let interface): "the gateway of \(interface)"
            case .address(let host): host
            }
        return "a \(family) camera at \(place)\(port.map { " port \($0)" } ?? "")"
    }
}
