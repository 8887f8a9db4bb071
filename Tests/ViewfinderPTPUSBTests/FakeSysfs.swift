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
        try write(path, attributes, under: root)
    }

    private func write(_ path: String, _ attributes: [String: String], under base: URL) throws {
        let directory = base.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, value) in attributes {
            try (value + "\n").write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
    }

    /// Takes a device and its interfaces out of the tree, as an unplug does.
    ///
    /// Each folder leaves the tree whole, by a rename, the device's first, as sysfs shows a device gone: a scan in
    /// between never sees a device with some of its attributes.
    func remove(_ name: String) throws {
        let entries = try FileManager.default.contentsOfDirectory(atPath: root.path)
            .filter { $0 == name || $0.hasPrefix(name + ":") }
            .sorted { $0.count < $1.count }
        let trash = try stagingFolder()
        defer { try? FileManager.default.removeItem(at: trash) }
        for entry in entries {
            try FileManager.default.moveItem(
                at: root.appendingPathComponent(entry), to: trash.appendingPathComponent(entry))
        }
    }

    /// A folder beside the tree, on the same file system, where folders are made or taken apart out of its sight.
    private func stagingFolder() throws -> URL {
        let folder = root.deletingLastPathComponent().appendingPathComponent("usb-staging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A camera with the usual pipes: bulk in 0x81, bulk out 0x02, interrupt 0x83.
    func camera(_ name: String, bus: Int, address: Int, serial: String? = nil) throws {
        try device(
            name, bus: bus, address: address, vendor: "04b0", product: "0437", serial: serial,
            triple: ("06", "01", "01"), endpoints: Self.cameraEndpoints)
    }

    static let cameraEndpoints = [("81", "02", "0200"), ("02", "02", "0200"), ("83", "03", "0040")]

    /// A device with one interface of class `triple` and the endpoints given as (address, attributes, size).
    ///
    /// The device is made beside the tree and moved in by renames, its interface first, as sysfs shows a device
    /// whole: a scan in between never sees a device with some of its attributes.
    func device(
        _ name: String, bus: Int, address: Int, vendor: String, product: String, serial: String?,
        triple: (String, String, String), interfaceName: String? = nil, endpoints: [(String, String, String)]
    ) throws {
        var attributes = [
            "busnum": "\(bus)", "devnum": "\(address)", "idVendor": vendor, "idProduct": product,
            "manufacturer": "Maker", "product": "Camera \(name)",
        ]
        attributes["serial"] = serial
        let staging = try stagingFolder()
        defer { try? FileManager.default.removeItem(at: staging) }
        try write(name, attributes, under: staging)
        var interface = [
            "bInterfaceClass": triple.0, "bInterfaceSubClass": triple.1, "bInterfaceProtocol": triple.2,
            "bInterfaceNumber": "00",
        ]
        interface["interface"] = interfaceName
        try write("\(name):1.0", interface, under: staging)
        for (endpoint, kind, size) in endpoints {
            try write(
                "\(name):1.0/ep_\(endpoint)",
                ["bEndpointAddress": endpoint, "bmAttributes": kind, "wMaxPacketSize": size], under: staging)
        }
        for entry in ["\(name):1.0", name] {
            try FileManager.default.moveItem(
                at: staging.appendingPathComponent(entry), to: root.appendingPathComponent(entry))
        }
    }
}
