/// How a camera was found.
public struct DiscoveryMethod: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The raw bits.
    public let rawValue: Int

    /// Creates a set of methods from its bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// SSDP (UPnP): the camera's NOTIFY or its answer to an M-SEARCH, and its device description.
    public static let ssdp = DiscoveryMethod(rawValue: 1)
    /// Multicast DNS service discovery (`_ptp._tcp.local`).
    public static let multicastDNS = DiscoveryMethod(rawValue: 2)
    /// Attached by USB, listed by the kernel; its address is a ``CameraAddress/usb(_:)`` at its bus and device.
    public static let usb = DiscoveryMethod(rawValue: 4)
    /// By the name of the camera's own WiFi network, which this machine joined; its address is the gateway there.
    public static let wirelessNetwork = DiscoveryMethod(rawValue: 8)

    /// The methods' names, such as `ssdp+mdns`.
    public var description: String {
        [(Self.ssdp, "ssdp"), (Self.multicastDNS, "mdns"), (Self.usb, "usb"), (Self.wirelessNetwork, "wifi")]
            .filter { contains($0.0) }.map(\.1).joined(separator: "+")
    }
}

/// A camera that announced itself on the network, or is attached by USB: who it is, where it is and how it was found.
///
/// ```swift
/// for camera in CameraDiscovery.shared.availableCameras {
///     print("\(camera.name): \(camera.model) at \(camera.address), found by \(camera.foundBy)")
/// }
/// ```
public struct DiscoveredCamera: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// What names the camera across announcements: its UDN, GUID or serial number.
    public var id: String
    /// The kind of camera, which chooses how Viewfinder talks to it.
    public var family: CameraFamily
    /// Its maker, as it says ("Canon", "Nikon Corporation").
    public var manufacturer: String
    /// Its model ("Canon EOS R6"); empty when it does not say.
    public var model: String
    /// The name its owner gave it, or its model.
    public var name: String
    /// Its serial number, where it gives one.
    public var serialNumber: String?
    /// Where it is: the host it announced from and the port it serves on, where it says (its family's usual port
    /// otherwise), or its bus and device on USB.
    public var address: CameraAddress
    /// How it was found; a camera found both ways is one entry.
    public var foundBy: DiscoveryMethod

    /// Describes a camera.
    public init(
        id: String, family: CameraFamily, manufacturer: String, model: String, name: String,
        serialNumber: String? = nil, address: CameraAddress, foundBy: DiscoveryMethod
    ) {
        self.id = id
        self.family = family
        self.manufacturer = manufacturer
        self.model = model
        self.name = name
        self.serialNumber = serialNumber
        self.address = address
        self.foundBy = foundBy
    }

    /// The name, the model and the address: `Anna's R6 (Canon EOS R6) at 192.168.1.2`.
    public var description: String {
        let model = model.isEmpty || model == name ? "" : " (\(model))"
        return "\(name)\(model) at \(address.host ?? address.description)"
    }
}

/// A change in the cameras discovery knows of.
public enum CameraDiscoveryChange: Hashable, Sendable {
    /// A camera announced itself for the first time, or again after it was lost.
    case discovered(DiscoveredCamera)
    /// What is known of a camera changed: another way of finding it, its address, its name.
    case updated(DiscoveredCamera)
    /// A camera said goodbye, or its announcement ran out without being renewed.
    case lost(DiscoveredCamera)
}
