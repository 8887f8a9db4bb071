import Foundation

/// A sysfs tree in a temporary folder.
final class FakeSysfs: Sendable {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("usb-sysfs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// Writes attribute files into the folder at `path`, making it.
    func write(_ path: String, _ attributes: [String: String]) throws {
        let directory = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, value) in attributes {
            try (value + "\n").write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
    }

    /// Takes a device and its interfaces out of the tree, as an unplug does.
    func remove(_ name: String) throws {
        for entry in try FileManager.default.contentsOfDirectory(atPath: root.path)
        where entry == name || entry.hasPrefix(name + ":") {
            try FileManager.default.removeItem(at: root.appendingPathComponent(entry))
        }
    }

    /// A camera with the usual pipes: bulk in 0x81, bulk out 0x02, interrupt 0x83.
    func camera(_ name: String, bus: Int, address: Int, serial: String? = nil) throws {
        try device(
            name, bus: bus, address: address, vendor: "04b0", product: "0437", serial: serial,
            triple: ("06", "01", "01"), endpoints: Self.cameraEndpoints)
    }

    static let cameraEndpoints = [("81", "02", "0200"), ("02", "02", "0200"), ("83", "03", "0040")]

    /// A device with one interface of class `triple` and the endpoints given as (address, attributes, size).
    func device(
        _ name: String, bus: Int, address: Int, vendor: String, product: String, serial: String?,
        triple: (String, String, String), interfaceName: String? = nil, endpoints: [(String, String, String)]
    ) throws {
        var attributes = [
            "busnum": "\(bus)", "devnum": "\(address)", "idVendor": vendor, "idProduct": product,
            "manufacturer": "Maker", "product": "Camera \(name)",
        ]
        attributes["serial"] = serial
        try write(name, attributes)
        var interface = [
            "bInterfaceClass": triple.0, "bInterfaceSubClass": triple.1, "bInterfaceProtocol": triple.2,
            "bInterfaceNumber": "00",
        ]
        interface["interface"] = interfaceName
        try write("\(name):1.0", interface)
        for (endpoint, kind, size) in endpoints {
            try write(
                "\(name):1.0/ep_\(endpoint)",
                ["bEndpointAddress": endpoint, "bmAttributes": kind, "wMaxPacketSize": size])
        }
    }
}
