import ViewfinderSystem

/// Where a camera is reached: a host and port on the network, or a place on USB.
///
/// Discovery hands a camera's address to the connectors for its kind (``Kind``): PTP/IP's for the network, the USB
/// transport's for USB. Its description is the form the tool prints and takes: `192.168.1.1`, `192.168.1.1:15740`,
/// `[fe80::1]:15740`, `usb:1:4`, `usb:SERIAL`, or `usb:` for the only camera attached.
///
/// ```swift
/// let address = CameraAddress.network(host: "192.168.1.1", port: nil)
/// let attached = CameraAddress.usb(.busAddress(bus: 1, address: 4))
/// ```
public enum CameraAddress: Hashable, Sendable, CustomStringConvertible {
    /// A camera on the network, by host name or IP address, its port when it is not its family's usual one, and
    /// where the device description it announced is when its family reads one: its path on that port for a Sony body
    /// that speaks the Camera Remote API, its whole URL for a Lumix (whose description is on its content directory's
    /// port, not its commands'); the family's usual places stand in when `nil`.
    case network(host: String, port: UInt16?, path: String? = nil)
    /// A camera attached by USB.
    case usb(USBCameraSelector)

    /// How a camera is reached, which chooses the connectors that make its camera object.
    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// Over the network, by host and port.
        case network
        /// Attached by USB.
        case usb

        /// "the network" or "USB", for messages.
        public var description: String {
            switch self {
            case .network: "the network"
            case .usb: "USB"
            }
        }
    }

    /// How the camera is reached.
    public var kind: Kind {
        switch self {
        case .network: .network
        case .usb: .usb
        }
    }

    /// The host of a network address; `nil` for a USB one.
    public var host: String? {
        if case .network(let host, _, _) = self { host } else { nil }
    }

    /// The port of a network address, when it names one.
    public var port: UInt16? {
        if case .network(_, let port, _) = self { port } else { nil }
    }

    /// Where the device description a network camera announced is, where its family reads one (see
    /// ``network(host:port:path:)``).
    public var path: String? {
        if case .network(_, _, let path) = self { path } else { nil }
    }

    /// `HOST`, `HOST:PORT` (`[IPv6]:PORT`), or `usb:` and the selector; a description's path is not shown.
    public var description: String {
        switch self {
        case .network(let host, let port, _):
            guard let port else { return host }
            return HostPort.text(host, port: port)
        case .usb(let selector):
            return "usb:\(selector)"
        }
    }
}

/// Which camera attached by USB: the only one, the one at a bus and device address, or the one with a serial number.
public enum USBCameraSelector: Hashable, Sendable, CustomStringConvertible {
    /// The only camera attached; more than one is an error.
    case only
    /// The camera at a bus and device address, as `lsusb` shows them (`1:4`).
    case busAddress(bus: Int, address: Int)
    /// The camera with a serial number.
    case serialNumber(String)

    /// Reads a selector as the tool takes it: empty for the only camera, `BUS:ADDRESS` such as `1:4`, or a serial
    /// number.
    public init(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if text.isEmpty {
            self = .only
        } else if parts.count == 2, let bus = Int(parts[0]), let address = Int(parts[1]) {
            self = .busAddress(bus: bus, address: address)
        } else {
            self = .serialNumber(text)
        }
    }

    /// Empty for the only camera, `BUS:ADDRESS`, or the serial number.
    public var description: String {
        switch self {
        case .only: ""
        case .busAddress(let bus, let address): "\(bus):\(address)"
        case .serialNumber(let serial): serial
        }
    }
}
