import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPUSB
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Checks the PTP over USB transport against umtp-responder, an independent MTP responder, serving a folder of the
/// VM as its storage through FunctionFS on dummy_hcd's gadget side: the client lists the device among the USB
/// cameras, reads its device information and storage, finds the files the VM put in the folder, downloads each
/// (identical bytes, small and several megabytes) and deletes one, which leaves the folder.
///
/// Then the unplug: the gadget is unbound from its controller in the middle of a download, which must end with
/// `disconnected` and leave no descriptor or thread behind; bound again, the camera is found at its new address and
/// answers a new session.
///
/// - Parameters:
///   - folder: The folder umtp-responder serves, holding `small.txt`, `large.bin` and `huge.bin`.
///   - gadget: The gadget's configfs folder, whose `UDC` file binds and unbinds it.
func runUSBMTPChecks(_ runner: CheckRunner, folder: String, gadget: String) async {
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

    await runner.run("usb-unplug-mid-download") {
        let controller = try require(Directory.names(in: "/sys/class/udc").first, "no USB device controller")
        let baseline = ProcessResources()
        let session = try await PTPSession.open(over: try PTPUSBTransport(device: device))
        var handle: UInt32?
        let storage = try require(try await session.storageIDs().first, "no storage")
        for candidate in try await session.objectHandles(storageID: storage, parent: 0xFFFF_FFFF)
        where try await session.objectInfo(candidate).filename == "huge.bin" {
            handle = candidate
        }
        let huge = try require(handle, "no huge.bin")
        let unplugged = Locked<ContinuousClock.Instant?>(nil)
        let outcome: String
        do {
            let bytes = try await session.object(huge) { progress in
                guard progress.completedBytes > 4 << 20 else { return }
                let first = unplugged.withLock { instant in
                    defer { if instant == nil { instant = .now } }
                    return instant == nil
                }
                // Unplugged from another thread, as a cable is, while the transfer goes on.
                if first { try? PlatformThread.detach(name: "unplug") { writeAttribute("\(gadget)/UDC", "") } }
            }
            outcome = "the download finished with \(bytes.count) bytes"
        } catch let error as ViewfinderError {
            outcome = "\(error.code): \(error.message)"
            try expect(error.code == .disconnected, "the download failed with \(outcome)")
        }
        let since = try require(unplugged.withLock { $0 }, "the download never passed 4 MB: \(outcome)")
        let ended = since.duration(to: .now)
        try expect(ended < .seconds(5), "the download ended \(ended) after the unplug")
        await session.close()
        try await baseline.expectReleased(after: "the session closed")
        // Plugged in again, with the responder started afresh, as a camera is when it is plugged back in.
        let responder = try restartResponder()
        defer { responder.interrupt() }
        writeAttribute("\(gadget)/UDC", controller)
        let back = await waitForDevices().first { $0.vendorID == device.vendorID }
        let again = try require(back, "the camera did not come back after binding the gadget again")
        let transport = try await PTPUSBEndpoint(device: device).openTransport()
        let second = try await PTPSession.open(over: transport)
        let storages = try await second.storageIDs()
        await second.close()
        return "the download ended within \(ended) of the unplug (\(outcome)); descriptors and threads back to "
            + "\(baseline); bound again it came back as \(again) and answered a new session "
            + "(\(storages.count) storage)"
    }
}

/// The calling process's open descriptors and threads, counted in `/proc/self`.
struct ProcessResources: CustomStringConvertible {
    let descriptors = Directory.names(in: "/proc/self/fd").count
    let threads = Directory.names(in: "/proc/self/task").count

    var description: String { "\(descriptors) descriptors and \(threads) threads" }

    /// Fails unless, within five seconds, the process has no more descriptors or threads than this baseline.
    func expectReleased(after what: String) async throws {
        var now = ProcessResources()
        _ = await wait(upTo: .seconds(5)) {
            now = ProcessResources()
            return now.descriptors <= descriptors && now.threads <= threads
        }
        try expect(now.descriptors <= descriptors && now.threads <= threads, "\(self) → \(now) after \(what)")
    }
}

/// Stops umtp-responder and starts it again, once it has its endpoints open.
private func restartResponder() throws -> ChildProcess {
    for entry in Directory.names(in: "/proc") where Int32(entry) != nil {
        guard let file = try? FileDescriptor.open("/proc/\(entry)/comm", O_RDONLY),
            let name = try? file.readAll(limit: 64), String(decoding: name, as: UTF8.self).hasPrefix("umtprd")
        else { continue }
        kill(Int32(entry)!, SIGKILL)
        let gone = ContinuousClock.now + .seconds(10)
        while access("/proc/\(entry)/comm", F_OK) == 0 && ContinuousClock.now < gone { usleep(50_000) }
    }
    // Its endpoints go with it, and come back when the new one has written its descriptors.
    let closed = ContinuousClock.now + .seconds(10)
    while access("/dev/ffs-mtp/ep1", F_OK) == 0 && ContinuousClock.now < closed { usleep(50_000) }
    let responder = try ChildProcess("/bin/umtprd", [])
    let opened = ContinuousClock.now + .seconds(20)
    while access("/dev/ffs-mtp/ep1", F_OK) != 0 && ContinuousClock.now < opened { usleep(100_000) }
    return responder
}

/// Writes a sysfs or configfs attribute.
func writeAttribute(_ path: String, _ value: String) {
    guard let file = try? FileDescriptor.open(path, O_WRONLY) else { return }
    var text = Array((value + "\n").utf8)
    _ = text.withUnsafeMutableBytes { try? file.write(UnsafeRawBufferPointer($0)) }
}

/// The USB cameras, once the gadget has enumerated (within 20 s).
private func waitForDevices() async -> [USBCameraDevice] {
    var devices: [USBCameraDevice] = []
    _ = await wait(upTo: .seconds(20)) {
        devices = (try? USBCameraDevice.all()) ?? []
        return !devices.isEmpty
    }
    return devices
}

/// A file's bytes.
private func readFile(_ path: String) throws -> [UInt8] {
    let file = try FileDescriptor.open(path, O_RDONLY)
    return try file.readAll(limit: 64 << 20)
}
