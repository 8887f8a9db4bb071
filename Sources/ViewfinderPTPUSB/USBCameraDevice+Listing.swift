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
    /// A device unplugged while it is read is left out; a machine without a USB listing has no cameras.
    ///
    /// - Parameters:
    ///   - sysfs: The directory listing USB devices; tests pass a tree of their own.
    ///   - deviceFiles: The directory of usbdevfs device files.
    /// - Throws: `ViewfinderError` with `ViewfinderError/Code/io` when the listing could not be read (the process has
    ///   no file descriptor left, say), rather than a list that leaves out cameras still attached.
    public static func all(sysfs: String = sysfsDevices, deviceFiles: String = "/dev/bus/usb") throws(ViewfinderError)
        -> [USBCameraDevice]
    {
        do {
            guard let names = try present({ () throws(Errno) in try Directory.entries(in: sysfs) }) else { return [] }
            var cameras: [USBCameraDevice] = []
            for name in names where !name.contains(":") {
                if let camera = try device(named: name, sysfs: sysfs, deviceFiles: deviceFiles, entries: names) {
                    cameras.append(camera)
                }
            }
            return cameras.sorted { ($0.bus, $0.address) < ($1.bus, $1.address) }
        } catch {
            throw ViewfinderError(.io, "cannot read the USB devices listed in \(sysfs)", errno: error.rawValue)
        }
    }

    /// The camera at sysfs name `name`, or `nil` when it is not a PTP or MTP camera.
    static func device(named name: String, sysfs: String, deviceFiles: String, entries: [String]) throws(Errno)
        -> USBCameraDevice?
    {
        let directory = "\(sysfs)/\(name)"
        guard let bus = Int(try attribute("busnum", of: directory) ?? ""),
            let address = Int(try attribute("devnum", of: directory) ?? ""),
            let vendor = UInt16(try attribute("idVendor", of: directory) ?? "", radix: 16),
            let product = UInt16(try attribute("idProduct", of: directory) ?? "", radix: 16)
        else { return nil }
        let interfaces = entries.filter { $0.hasPrefix(name + ":") }.sorted()
        // Each interface is read once: a lazy compactMap's `first` reads the one it finds twice, and trapped when a
        // device unplugged between the two reads.
        var found: Pipes?
        for interface in interfaces {
            found = try pipes(of: "\(sysfs)/\(interface)")
            if found != nil { break }
        }
        guard let pipes = found else { return nil }
        func padded(_ number: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        }
        return USBCameraDevice(
            bus: bus, address: address, vendorID: vendor, productID: product,
            manufacturer: try attribute("manufacturer", of: directory) ?? "",
            product: try attribute("product", of: directory) ?? "",
            serialNumber: try attribute("serial", of: directory),
            path: "\(deviceFiles)/\(padded(bus))/\(padded(address))", sysfsName: name, pipes: pipes)
    }

    /// The pipes of a still-image interface (class 6/1/1), or of a vendor-class interface that calls itself MTP,
    /// with its bulk-in, bulk-out and interrupt-in endpoints; `nil` for any other interface.
    static func pipes(of interface: String) throws(Errno) -> Pipes? {
        let triple = try ["bInterfaceClass", "bInterfaceSubClass", "bInterfaceProtocol"].map { (name) throws(Errno) in
            try attribute(name, of: interface)
        }
        let isStillImage = triple == ["06", "01", "01"]
        let name = triple[0] == "ff" ? try attribute("interface", of: interface) : nil
        let isMTP = name?.contains("MTP") ?? false
        guard isStillImage || isMTP, let number = Int(try attribute("bInterfaceNumber", of: interface) ?? "", radix: 16)
        else { return nil }
        var bulkIn: (UInt8, UInt16)?
        var bulkOut: (UInt8, UInt16)?
        var interrupt: (UInt8, UInt16)?
        for entry in try present({ () throws(Errno) in try Directory.entries(in: interface) }) ?? []
        where entry.hasPrefix("ep_") {
            let endpoint = "\(interface)/\(entry)"
            guard let address = UInt8(try attribute("bEndpointAddress", of: endpoint) ?? "", radix: 16),
                let attributes = UInt8(try attribute("bmAttributes", of: endpoint) ?? "", radix: 16),
                let size = UInt16(try attribute("wMaxPacketSize", of: endpoint) ?? "", radix: 16)
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

    /// A sysfs attribute's text without its newline; `nil` when the device has no such attribute or has gone.
    ///
    /// - Throws: Any other failure to read it, which says nothing about the device.
    static func attribute(_ name: String, of directory: String) throws(Errno) -> String? {
        guard
            let bytes = try present({ () throws(Errno) in
                try FileDescriptor.open("\(directory)/\(name)", O_RDONLY).readAll(limit: 4096)
            })
        else { return nil }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.last == "\n" { text.removeLast() }
        return text
    }

    /// What `read` reads, or `nil` when what it reads is not there: missing (`ENOENT`, `ENOTDIR`), or its device
    /// unplugged while it was read (`ENODEV`).
    private static func present<Value>(_ read: () throws(Errno) -> Value) throws(Errno) -> Value? {
        do {
            return try read()
        } catch {
            guard [.noSuchFile, .noDevice, Errno(rawValue: ENOTDIR)].contains(error) else { throw error }
            return nil
        }
    }
}
