import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPUSB
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Checks the PTP over USB transport against umtp-responder, an independent MTP responder, serving a folder of the
/// VM as its storage through FunctionFS on dummy_hcd's gadget side: the client lists the device among the USB
/// cameras, reads its device information and storage, finds the files the VM put in the folder, downloads each
/// (identical bytes, small and several megabytes) and deletes one, which leaves the folder.
///
/// - Parameter folder: The folder umtp-responder serves, holding `small.txt` and `large.bin`.
func runUSBMTPChecks(_ runner: CheckRunner, folder: String) async {
    var found: USBCameraDevice?
    await runner.run("usb-listing") {
        let devices = await waitForDevices()
        let device = try require(
            devices.first { $0.vendorID == 0x1D6B && $0.productID == 0x0100 },
            "umtp-responder's device is not among the USB cameras: \(devices)")
        let pipes = try require(device.pipes, "no pipes for \(device)")
        found = device
        return "\(device): interface \(pipes.interface), bulk in 0x\(String(pipes.bulkIn, radix: 16)) "
            + "(\(pipes.bulkInPacketSize) bytes), bulk out 0x\(String(pipes.bulkOut, radix: 16)), interrupt "
            + "0x\(String(pipes.interrupt, radix: 16)), \(device.path)"
    }
    guard let device = found else { return }
    await runner.run("usb-mtp-files") {
        let session = try await PTPSession.open(over: try PTPUSBTransport(device: device))
        defer { Task { await session.close() } }
        let info = session.deviceInfo
        try expect(info.manufacturer.contains("Viveris"), "device information names \(info.manufacturer)")
        let storages = try await session.storageIDs()
        let storage = try require(storages.first, "no storage")
        let storageInfo = try await session.storageInfo(storage)
        try expect(
            storageInfo.storageDescription == "shared folder", "the storage is \(storageInfo.storageDescription)")
        var names: [String: UInt32] = [:]
        for handle in try await session.objectHandles(storageID: storage, parent: 0xFFFF_FFFF) {
            names[try await session.objectInfo(handle).filename] = handle
        }
        var downloaded: [String] = []
        for name in ["small.txt", "large.bin"] {
            let handle = try require(names[name], "\(name) is not among \(names.keys.sorted())")
            let bytes = try await session.object(handle)
            let original = try readFile("\(folder)/\(name)")
            try expect(bytes == original, "\(name): downloaded \(bytes.count) bytes, the file has \(original.count)")
            downloaded.append("\(name) (\(bytes.count) bytes)")
        }
        try await session.deleteObject(try require(names["small.txt"], "no small.txt"))
        try expect(access("\(folder)/small.txt", F_OK) != 0, "small.txt is still in the folder after DeleteObject")
        await session.close()
        return "\(info.manufacturer) \(info.model): storage '\(storageInfo.storageDescription)', downloaded "
            + downloaded.joined(separator: " and ") + " identical, deleted small.txt"
    }
}

/// The USB cameras, once the gadget has enumerated (within 20 s).
private func waitForDevices() async -> [USBCameraDevice] {
    var devices: [USBCameraDevice] = []
    _ = await wait(upTo: .seconds(20)) {
        devices = USBCameraDevice.all()
        return !devices.isEmpty
    }
    return devices
}

/// A file's bytes.
private func readFile(_ path: String) throws -> [UInt8] {
    let file = try FileDescriptor.open(path, O_RDONLY)
    return try file.readAll(limit: 64 << 20)
}
