import ViewfinderCore
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

extension USBCameraDevice {
    /// Where the kernel lists USB devices and their interfaces.
    public static let sysfsDevices = "/sys/bus/usb/devices"

    /// The PTP and MTP cameras attached now, in bus and address order.
    ///
    /// - Parameters:
    ///   - sysfs: The directory listing USB devices; tests pass a tree of their own.
    ///   - deviceFiles: The directory of usbdevfs device files.
    public static func all(sysfs: String = sysfsDevices, deviceFiles: String = "/dev/bus/usb") -> [USBCameraDevice] {
        let names = Directory.names(in: sysfs)
        return
            names
            .filter { !$0.contains(":") }
            .compactMap { device(named: $0, sysfs: sysfs, deviceFiles: deviceFiles, entries: names) }
            .sorted { ($0.bus, $0.address) < ($1.bus, $1.address) }
    }

    /// The camera at sysfs name `name`, or `nil` when it is not a PTP or MTP camera.
    static func device(named name: String, sysfs: String, deviceFiles: String, entries: [String])
        -> USBCameraDevice?
    {
        let directory = "\(sysfs)/\(name)"
        guard let bus = Int(attribute("busnum", of: directory) ?? ""),
            let address = Int(attribute("devnum", of: directory) ?? ""),
            let vendor = UInt16(attribute("idVendor", of: directory) ?? "", radix: 16),
            let product = UInt16(attribute("idProduct", of: directory) ?? "", radix: 16)
        else { return nil }
        let interfaces = entries.filter { $0.hasPrefix(name + ":") }.sorted()
        // Each interface is read once: a lazy compactMap's `first` reads the one it finds twice, and trapped when a
        // device unplugged between the two reads.
        var found: Pipes?
        for interface in interfaces {
            found = pipes(of: "\(sysfs)/\(interface)")
            if found != nil { break }
        }
        guard let pipes = found else { return nil }
        func padded(_ number: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        }
        return USBCameraDevice(
            bus: bus, address: address, vendorID: vendor, productID: product,
            manufacturer: attribute("manufacturer", of: directory) ?? "",
            product: attribute("product", of: directory) ?? "", serialNumber: attribute("serial", of: directory),
            path: "\(deviceFiles)/\(padded(bus))/\(padded(address))", sysfsName: name, pipes: pipes)
    }

    /// The pipes of a still-image interface (class 6/1/1), or of a vendor-class interface that calls itself MTP,
    /// with its bulk-in, bulk-out and interrupt-in endpoints; `nil` for any other interface.
    static func pipes(of interface: String) -> Pipes? {
        let triple = ["bInterfaceClass", "bInterfaceSubClass", "bInterfaceProtocol"].map {
            attribute($0, of: interface)
        }
        let isStillImage = triple == ["06", "01", "01"]
        let isMTP = triple[0] == "ff" && (attribute("interface", of: interface) ?? "").contains("MTP")
        guard isStillImage || isMTP, let number = Int(attribute("bInterfaceNumber", of: interface) ?? "", radix: 16)
        else { return nil }
        var bulkIn: (UInt8, UInt16)?
        var bulkOut: (UInt8, UInt16)?
        var interrupt: (UInt8, UInt16)?
        for entry in Directory.names(in: interface) where entry.hasPrefix("ep_") {
            let endpoint = "\(interface)/\(entry)"
            guard let address = UInt8(attribute("bEndpointAddress", of: endpoint) ?? "", radix: 16),
                let attributes = UInt8(attribute("bmAttributes", of: endpoint) ?? "", radix: 16),
                let size = UInt16(attribute("wMaxPacketSize", of: endpoint) ?? "", radix: 16)
            else { continue }
            let isIn = address & 0x80 != 0
            switch (attributes & 0x03, isIn) {
            case (2, true): bulkIn = (address, size & 0x7FF)
            case (2, false): bulkOut = (address, size & 0x7FF)
            case (3, true): interrupt = (address, size & 0x7FF)
            default: continue
            }
        }
        guard let bulkIn, let bulkOut, let interrupt, bulkIn.1 > 0, bulkOut.1 > 0 else { return nil }
        return Pipes(
            interface: number, bulkIn: bulkIn.0, bulkOut: bulkOut.0, interrupt: interrupt.0,
            bulkInPacketSize: bulkIn.1, bulkOutPacketSize: bulkOut.1, interruptPacketSize: interrupt.1)
    }

    /// A sysfs attribute's text without its newline; `nil` when the file is missing or unreadable.
    static func attribute(_ name: String, of directory: String) -> String? {
        guard let file = try? FileDescriptor.open("\(directory)/\(name)", O_RDONLY),
            let bytes = try? file.readAll(limit: 4096)
        else { return nil }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
