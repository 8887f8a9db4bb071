import ViewfinderCore
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// A USB gadget made through configfs with one FunctionFS function: the device a USB device controller (a real one,
/// or dummy_hcd's) shows its host, whose endpoints the simulator serves from user space.
///
/// ``create(name:vendorID:productID:manufacturer:product:serial:owner:)`` makes the gadget and mounts the function's
/// FunctionFS; the caller writes the descriptors to `ep0`, then ``bind(controller:)`` plugs the gadget in.
/// ``remove()`` unplugs and removes it. After ``keepRemovable()``, a keeper process does the unplugging and removing,
/// so that this process may give up root.
final class USBGadget: Sendable {
    /// The gadget's configfs folder.
    let directory: String
    /// Where the function's FunctionFS is mounted: `ep0`, then `ep1`… once the descriptors are written.
    let endpoints: String
    /// The process that unplugs and removes the gadget, once ``keepRemovable()`` has forked it.
    private let keeper = Locked<CleanupKeeper?>(nil)

    /// Where configfs keeps USB gadgets.
    static let configfs = "/sys/kernel/config/usb_gadget"

    private init(directory: String, endpoints: String) {
        self.directory = directory
        self.endpoints = endpoints
    }

    /// Makes gadget `name` with the USB IDs and strings of a camera, and mounts its FunctionFS.
    ///
    /// - Parameter owner: The user and group whose the function's files are (`ep0`, `ep1`…), for a process that
    ///   serves them after it gives up root; root's when `nil`.
    /// - Throws: `ViewfinderError/Code/notAvailable` naming what to load when configfs, libcomposite or FunctionFS
    ///   is missing, `ViewfinderError/Code/permissionDenied` when not run as root.
    static func create(
        name: String, vendorID: UInt16, productID: UInt16, manufacturer: String, product: String, serial: String,
        owner: (user: UInt32, group: UInt32)? = nil
    ) throws(ViewfinderError) -> USBGadget {
        guard access(configfs, F_OK) == 0 else {
            throw ViewfinderError(
                .notAvailable,
                "there is no \(configfs): mount configfs (mount -t configfs none /sys/kernel/config) and load "
                    + "libcomposite and usb_f_fs (modprobe libcomposite usb_f_fs)")
        }
        let directory = "\(configfs)/\(name)"
        let endpoints = "/dev/ffs-\(name)"
        let gadget = USBGadget(directory: directory, endpoints: endpoints)
        do throws(ViewfinderError) {
            try makeDirectory(directory)
            try write(hex(vendorID), to: "idVendor", in: directory)
            try write(hex(productID), to: "idProduct", in: directory)
            try write("0x0200", to: "bcdUSB", in: directory)
            try makeDirectory("\(directory)/strings/0x409")
            try write(manufacturer, to: "strings/0x409/manufacturer", in: directory)
            try write(product, to: "strings/0x409/product", in: directory)
            try write(serial, to: "strings/0x409/serialnumber", in: directory)
            try makeDirectory("\(directory)/configs/c.1")
            try makeDirectory("\(directory)/configs/c.1/strings/0x409")
            try write("PTP", to: "configs/c.1/strings/0x409/configuration", in: directory)
            try makeDirectory("\(directory)/functions/ffs.\(name)")
            guard symlink("\(directory)/functions/ffs.\(name)", "\(directory)/configs/c.1/ffs.\(name)") == 0 else {
                throw ViewfinderError(Errno.current, while: "adding the function to the gadget's configuration")
            }
            try makeDirectory(endpoints)
            let options = owner.map { "uid=\($0.user),gid=\($0.group)" }
            guard mount(name, endpoints, "functionfs", 0, options) == 0 else {
                throw ViewfinderError(Errno.current, while: "mounting FunctionFS at \(endpoints)")
            }
        } catch {
            gadget.remove()
            throw error
        }
        return gadget
    }

    /// Binds the gadget to a USB device controller, which shows it to the host: `controller`, or the first in
    /// `/sys/class/udc`.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` when there is no controller (load dummy_hcd for a virtual one).
    func bind(controller: String?) throws(ViewfinderError) {
        guard let chosen = controller ?? Directory.names(in: "/sys/class/udc").sorted().first else {
            throw ViewfinderError(
                .notAvailable,
                "this machine has no USB device controller in /sys/class/udc; load dummy_hcd (modprobe dummy_hcd) "
                    + "for a virtual one joined to a virtual host controller")
        }
        try Self.write(chosen, to: "UDC", in: directory)
    }

    /// Forks a process, as root, that unplugs and removes the gadget when ``unbind()`` and ``remove()`` ask, or when
    /// this process ends however it ends; this process may then give up root and still take its gadget away.
    ///
    /// - Throws: `ViewfinderError` when the keeper cannot be made.
    func keepRemovable() throws(ViewfinderError) {
        do {
            let made = try CleanupKeeper(early: unbinding, last: removal)
            keeper.withLock { $0 = made }
        } catch {
            throw ViewfinderError(error, while: "starting the process that removes the USB gadget")
        }
    }

    /// Unbinds the gadget, as if unplugged; it stays, ready for ``bind(controller:)``.
    func unbind() {
        guard let keeper = keeper.withLock({ $0 }) else { return CleanupKeeper.run(unbinding) }
        keeper.runEarlySteps()
    }

    /// Unbinds, unmounts and removes the gadget; whatever part of it exists.
    func remove() {
        guard let keeper = keeper.withLock({ $0 }) else { return CleanupKeeper.run(removal) }
        keeper.finish(within: .seconds(10))
    }

    /// What unplugs the gadget: its controller's name cleared.
    private var unbinding: [CleanupKeeper.Step] { [.write("\n", to: "\(directory)/UDC")] }

    /// What removes the gadget: unplugged, its FunctionFS unmounted, and its configfs folders removed, innermost
    /// first.
    private var removal: [CleanupKeeper.Step] {
        let name = String(directory.split(separator: "/").last ?? "")
        let folders = ["configs/c.1/strings/0x409", "configs/c.1", "functions/ffs.\(name)", "strings/0x409"]
        return unbinding + [
            .unmount(endpoints), .removeDirectory(endpoints), .removeFile("\(directory)/configs/c.1/ffs.\(name)"),
        ] + folders.map { .removeDirectory("\(directory)/\($0)") } + [.removeDirectory(directory)]
    }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    private static func makeDirectory(_ path: String) throws(ViewfinderError) {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            let error = Errno.current
            if error == .permissionDenied || error.rawValue == EPERM {
                throw ViewfinderError(
                    .permissionDenied, "cannot make \(path): \(error); a USB gadget needs root", errno: error.rawValue)
            }
            throw ViewfinderError(error, while: "making \(path)")
        }
    }

    private static func write(_ value: String, to name: String, in directory: String) throws(ViewfinderError) {
        let path = "\(directory)/\(name)"
        do throws(Errno) {
            let file = try FileDescriptor.open(path, O_WRONLY)
            let bytes = Array((value + "\n").utf8)
            _ = try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try file.write(raw) } }.get()
        } catch {
            throw ViewfinderError(error, while: "writing '\(value)' to \(path)")
        }
    }
}
