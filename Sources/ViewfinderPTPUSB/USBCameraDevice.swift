import ViewfinderCore

#if canImport(Glibc)
import Glibc
#endif

/// A camera attached by USB that speaks PTP: a still-image interface (class 6, subclass 1, protocol 1) or an MTP
/// device, as the kernel lists it in sysfs.
///
/// ```swift
/// for device in try USBCameraDevice.all() {
///     print(device)                      // Nikon DSC D750 (usb 1:4)
/// }
/// let camera = PTPCamera(endpoint: PTPUSBEndpoint(device: device))
/// ```
public struct USBCameraDevice: Hashable, Sendable, CustomStringConvertible {
    /// The bus number.
    public var bus: Int
    /// The device's address on its bus; it changes each time the camera is plugged in.
    public var address: Int
    /// The USB vendor ID, such as `0x04B0` for Nikon.
    public var vendorID: UInt16
    /// The USB product ID.
    public var productID: UInt16
    /// The maker's name, as the device gives it, such as `Nikon`.
    public var manufacturer: String
    /// The product's name, as the device gives it, such as `DSC D750`.
    public var product: String
    /// The serial number, when the device gives one.
    public var serialNumber: String?
    /// The device file, such as `/dev/bus/usb/001/004`.
    public var path: String
    /// The sysfs name of the device, such as `1-1.2`, which stays the same for a port.
    public var sysfsName: String
    /// The PTP interface and its pipes; `nil` when the device has no usable one.
    public var pipes: Pipes?

    /// The PTP interface's number and endpoint addresses, and the packet sizes of its pipes.
    public struct Pipes: Hashable, Sendable {
        /// The interface number.
        public var interface: Int
        /// The bulk-in endpoint address (bit 7 set).
        public var bulkIn: UInt8
        /// The bulk-out endpoint address.
        public var bulkOut: UInt8
        /// The interrupt-in endpoint address (bit 7 set).
        public var interrupt: UInt8
        /// The largest packet of the bulk-in pipe.
        public var bulkInPacketSize: UInt16
        /// The largest packet of the bulk-out pipe.
        public var bulkOutPacketSize: UInt16
        /// The largest packet of the interrupt pipe.
        public var interruptPacketSize: UInt16

        /// Creates a pipe description.
        public init(
            interface: Int, bulkIn: UInt8, bulkOut: UInt8, interrupt: UInt8, bulkInPacketSize: UInt16,
            bulkOutPacketSize: UInt16, interruptPacketSize: UInt16
        ) {
            self.interface = interface
            self.bulkIn = bulkIn
            self.bulkOut = bulkOut
            self.interrupt = interrupt
            self.bulkInPacketSize = bulkInPacketSize
            self.bulkOutPacketSize = bulkOutPacketSize
            self.interruptPacketSize = interruptPacketSize
        }
    }

    /// `BUS:ADDRESS`, as gphoto2's `usb:BUS,ADDRESS` and lsusb name a device, such as `1:4`.
    public var location: String { "\(bus):\(address)" }

    /// The maker and product, such as `Nikon DSC D750`; `USB camera` when the device names neither.
    public var name: String {
        let name = (product.hasPrefix(manufacturer) ? product : "\(manufacturer) \(product)").trimmingSpaces
        return name.isEmpty ? "USB camera" : name
    }

    /// The name and where it is, such as `Nikon DSC D750 (usb 1:4)`.
    public var description: String {
        "\(name) (usb \(location))"
    }

    /// The camera family its vendor ID names, for messages and discovery.
    public var family: CameraFamily {
        switch vendorID {
        case 0x04A9: .canon
        case 0x04B0: .nikon
        case 0x054C: .sony
        case 0x04CB: .fujifilm
        case 0x07B4: .olympus
        case 0x04DA: .panasonic
        default: .genericPTPIP
        }
    }

    /// What to do when the device file may not be opened: install viewfinder's udev rule, which opens cameras with a
    /// still-image interface to the user at the machine, or add a rule for this device.
    public var udevRuleHint: String {
        let vendor = String(vendorID, radix: 16, uppercase: false).leftPadded(to: 4)
        let product = String(productID, radix: 16, uppercase: false).leftPadded(to: 4)
        return "install viewfinder's udev rule, 60-viewfinder.rules ('make install' and the Debian package put it in "
            + "lib/udev/rules.d; it gives the user logged in at the machine every camera with a still-image "
            + "interface), run 'sudo udevadm control --reload' and plug the camera in again; for a camera without "
            + "that interface, or a user logged in over the network, add a rule such as SUBSYSTEM==\"usb\", "
            + "ATTR{idVendor}==\"\(vendor)\", ATTR{idProduct}==\"\(product)\", MODE=\"0660\", GROUP=\"plugdev\" "
            + "to /etc/udev/rules.d/60-viewfinder-local.rules"
    }

    /// Creates a description; ``all(sysfs:deviceFiles:)`` finds the attached ones.
    public init(
        bus: Int, address: Int, vendorID: UInt16, productID: UInt16, manufacturer: String, product: String,
        serialNumber: String?, path: String, sysfsName: String, pipes: Pipes?
    ) {
        self.bus = bus
        self.address = address
        self.vendorID = vendorID
        self.productID = productID
        self.manufacturer = manufacturer
        self.product = product
        self.serialNumber = serialNumber
        self.path = path
        self.sysfsName = sysfsName
        self.pipes = pipes
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
