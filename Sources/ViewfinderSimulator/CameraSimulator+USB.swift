import ViewfinderCore

extension CameraSimulator {
    /// The USB vendor and product IDs the camera shows as a USB device: a Nikon D750's, a Canon EOS 5D Mark IV's, and
    /// a Sony α7 IV's and α7 III's in PC remote mode and a Fujifilm X-T4's for those identities, so that gphoto2 treats them as it treats
    /// those cameras, and the Linux Foundation's gadget IDs for the generic camera, which gphoto2 finds by its
    /// still-image class; a replayed camera shows its maker's vendor ID (Canon, Nikon, Sony, Samsung) with the
    /// gadget's product ID, and is found by its class.
    public var usbIDs: (vendor: UInt16, product: UInt16) {
        guard camera != nil else {
            let maker = responder.deviceInfo.manufacturer.lowercased()
            let vendors: [(String, UInt16)] = [
                ("canon", 0x04A9), ("nikon", 0x04B0), ("sony", 0x054C), ("samsung", 0x04E8),
            ]
            return (vendors.first { maker.contains($0.0) }?.1 ?? 0x1D6B, 0x0104)
        }
        return switch configuration.identity {
        case .generic: (0x1D6B, 0x0104)
        case .nikon: (0x04B0, 0x0437)
        case .canon: (0x04A9, 0x3281)
        case .sony: (0x054C, 0x0DA7)
        case .sonyStepping: (0x054C, 0x0C34)
        case .fuji: (0x04CB, 0x02E6)
        }
    }

    /// Makes the camera a USB device: a gadget through configfs and FunctionFS, bound to a USB device controller,
    /// which shows it to that controller's host as a still-image camera; ``stop()`` unplugs and removes it.
    ///
    /// dummy_hcd gives a machine a virtual device controller joined to a virtual host controller, so that the
    /// camera appears on the same machine's USB bus (`modprobe dummy_hcd libcomposite usb_f_fs` as root).
    ///
    /// With an `owner`, the gadget is made so that this process can give up root once this returns, as a server
    /// should: the function's FunctionFS is mounted for that user and group, whose the endpoint files then are, and
    /// a process forked now, which keeps root, unplugs and removes the gadget when the simulator stops or this
    /// process ends.
    ///
    /// - Parameters:
    ///   - controller: The device controller, as `/sys/class/udc` names it; the first one when `nil`.
    ///   - owner: The user and group this process becomes after this returns; `nil` when it stays root.
    /// - Throws: `ViewfinderError/Code/notAvailable` naming what to load when configfs, FunctionFS or a device
    ///   controller is missing, and `ViewfinderError/Code/permissionDenied` when not run as root.
    public func startUSB(controller: String? = nil, owner: (user: UInt32, group: UInt32)? = nil) throws {
        let info = responder.deviceInfo
        let name = "viewfinder-\(configuration.identity.rawValue)"
        let ids = usbIDs
        let gadget = try USBGadget.create(
            name: name, vendorID: ids.vendor, productID: ids.product, manufacturer: info.manufacturer,
            product: info.model, serial: info.serialNumber, owner: owner)
        let function: SimulatorUSBFunction
        do {
            function = try SimulatorUSBFunction(
                camera: responder, gadget: gadget,
                log: { [configuration] in
                    configuration.log?($0)
                })
            if owner != nil { try gadget.keepRemovable() }
            try function.start(controller: controller)
        } catch {
            gadget.remove()
            throw error
        }
        usb.withLock { $0 = function }
        configuration.log?("serving \(info.manufacturer) \(info.model) over USB as \(gadget.directory)")
    }
}
