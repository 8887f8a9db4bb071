import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPUSB
import ViewfinderReactive
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Checks the simulated camera as a USB device (`viewfinder simulate --usb`, a FunctionFS gadget on dummy_hcd):
/// gphoto2, an independent client, finds it, reads its summary, sets and reads ISO, captures and downloads a
/// picture, lists its files and (Nikon, Canon, Sony, Fujifilm) takes a live view frame; then the `viewfinder` tool does
/// the same over its own USB transport, the API records a movie (Nikon, Canon, Sony), the Sony and Fujifilm bodies are
/// checked further with gphoto2's code paths for them, a download killed mid-transfer leaves the generic camera busy
/// for the next program to connect to, and the generic camera is unplugged and plugged in again for the hotplug
/// reports.
///
/// - Parameters:
///   - identity: The identity the simulator runs as: generic, nikon, canon, sony, sony-stepping or fuji.
///   - tool: The `viewfinder` tool.
///   - gphoto2: The gphoto2 program.
func runUSBCameraChecks(_ runner: CheckRunner, identity: String, tool: String, gphoto2: String) async {
    let vendor: UInt16 =
        switch identity {
        case "nikon": 0x04B0
        case "canon": 0x04A9
        case "sony", "sony-stepping": 0x054C
        case "fuji": 0x04CB
        default: 0x1D6B
        }
    let manufacturer =
        switch identity {
        case "nikon": "Nikon Corporation"
        case "canon": "Canon Inc."
        case "sony", "sony-stepping": "Sony Corporation"
        case "fuji": "FUJIFILM"
        default: "Viewfinder"
        }
    var found: USBCameraDevice?
    _ = await wait(upTo: .seconds(30)) {
        found = (try? USBCameraDevice.all())?.first { $0.vendorID == vendor }
        return found != nil
    }
    await runner.run("usb-\(identity)-gphoto2") {
        let attached = try USBCameraDevice.all()
        let device = try require(found, "the simulated \(identity) camera is not among \(attached)")
        let port = "usb:\(String(format: "%03d", device.bus)),\(String(format: "%03d", device.address))"
        func run(_ arguments: [String]) throws -> String {
            let result = try ChildProcess.run(
                gphoto2, ["--port", port] + arguments, environment: ["HOME": "/tmp"], mergingErrors: true,
                timeout: .seconds(90))
            try expect(result.status == 0, "gphoto2 \(arguments.joined(separator: " ")): \(result.standardOutput)")
            return result.standardOutput
        }
        let detected = try ChildProcess.run(gphoto2, ["--auto-detect"], environment: ["HOME": "/tmp"])
        try expect(detected.standardOutput.contains(port), "gphoto2 --auto-detect: \(detected.standardOutput)")
        let summary = try run(["--summary"])
        try expect(summary.contains(manufacturer), "the summary does not name \(manufacturer): \(summary)")
        _ = try run(["--set-config", "iso=800"])
        let iso = try run(["--get-config", "iso"])
        try expect(iso.contains("Current: 800"), "after setting ISO 800: \(iso)")
        let picture = "/tmp/usb-\(identity)-gphoto2.jpg"
        _ = try run(["--capture-image-and-download", "--filename", picture, "--force-overwrite"])
        try expect(isJPEG(picture), "the picture gphoto2 downloaded is not a JPEG")
        let files = try run(["--list-files"])
        try expect(files.contains(".JPG"), "the card's files: \(files)")
        let previewArguments = ["--capture-preview", "--filename", "usb-\(identity)-preview.jpg", "--force-overwrite"]
        let extra: String
        if identity == "generic" {
            // libgphoto2 has live view only in the vendors' dialects: for a plain PTP camera it says so.
            let refused = try ChildProcess.run(
                gphoto2, ["--port", port] + previewArguments, environment: ["HOME": "/tmp"], mergingErrors: true,
                timeout: .seconds(90))
            try expect(
                refused.status != 0 && refused.standardOutput.contains("Unsupported operation"),
                "gphoto2 --capture-preview on a plain PTP camera: \(refused.standardOutput)")
            extra = ", --capture-preview refused as gphoto2 does for plain PTP cameras"
        } else {
            // gphoto2 names a preview file thumb_NAME, in its working folder.
            let output = try run(previewArguments)
            let saved = output.split(separator: "\n").first { $0.hasPrefix("Saving file as ") }
                .map { String($0.dropFirst("Saving file as ".count)) }
            let preview = try require(saved, "gphoto2 saved no preview: \(output)")
            try expect(isJPEG(preview), "the live view frame gphoto2 saved in \(preview) is not a JPEG")
            extra = ", a live view frame (--capture-preview)"
        }
        return "\(port): --auto-detect, --summary (\(manufacturer)), ISO 800 set and read, a picture captured and "
            + "downloaded, the files listed\(extra)"
    }
    await runner.run("usb-\(identity)-viewfinder") {
        let device = try require(found, "no simulated \(identity) camera")
        let listed = try ChildProcess.run(tool, ["discover", "--timeout", "0.5", "--json"], timeout: .seconds(60))
        try expect(
            listed.standardOutput.contains("\"usb:\(device.location)\""),
            "viewfinder discover does not list usb:\(device.location): \(listed.standardOutput)")
        func run(_ arguments: [String]) throws -> String {
            let result = try ChildProcess.run(
                tool, ["camera"] + arguments + ["--usb", "any"], mergingErrors: true, timeout: .seconds(90))
            try expect(
                result.status == 0, "viewfinder camera \(arguments.joined(separator: " ")): \(result.standardOutput)")
            return result.standardOutput
        }
        let info = try run(["info"])
        try expect(info.contains(manufacturer), "camera info: \(info)")
        _ = try run(["set", "iso", "1600"])
        let iso = try run(["get", "iso"])
        try expect(iso.contains("1600"), "after setting ISO 1600: \(iso)")
        let folder = "/tmp/usb-\(identity)-shots"
        let shot = try run(["shoot", "--download", folder])
        let saved = Directory.names(in: folder).filter { $0.uppercased().hasSuffix(".JPG") }
        try expect(saved.count == 1 && isJPEG("\(folder)/\(saved[0])"), "camera shoot: \(shot); saved \(saved)")
        var extra = ""
        if identity != "generic" {
            let frames = "/tmp/usb-\(identity)-frames"
            _ = try run(["liveview", "--frames", "3", "--out", frames])
            let saved = Directory.names(in: frames).filter { $0.hasSuffix(".jpg") }
            try expect(saved.count == 3 && saved.allSatisfy { isJPEG("\(frames)/\($0)") }, "live view saved \(saved)")
            extra = ", 3 live view frames"
        }
        // The simulated Fujifilm records no movies.
        if identity != "generic" && identity != "fuji" {
            let movies = "/tmp/usb-\(identity)-movies"
            _ = try run(["record", "--seconds", "1", "--download", movies])
            let movie = Directory.names(in: movies).filter { $0.hasSuffix(".MOV") }
            var info = stat()
            let bytes = movie.count == 1 && stat("\(movies)/\(movie[0])", &info) == 0 ? Int(info.st_size) : 0
            try expect(bytes > 1_000_000, "camera record saved \(movie) in \(movies), \(bytes) bytes")
            extra += ", a movie recorded for 1 s and downloaded (\(movie[0]), \(bytes) bytes)"
        }
        return "discover lists it, info, ISO 1600 set and read, a picture shot and downloaded (\(saved[0]))\(extra)"
    }
    let gadget = "/sys/kernel/config/usb_gadget/viewfinder-\(identity)"
    if identity != "generic" && identity != "fuji" {
        await runUSBRecordingCheck(runner, identity: identity, vendor: vendor)
    }
    if identity.hasPrefix("sony") {
        await runUSBSonyChecks(runner, identity: identity, device: found, tool: tool, gphoto2: gphoto2)
    }
    if identity == "fuji" {
        await runUSBFujiChecks(runner, device: found, tool: tool, gphoto2: gphoto2)
    }
    if identity == "generic" {
        await runKilledDownloadCheck(runner, vendor: vendor, manufacturer: manufacturer, tool: tool)
        await runUSBHotplugCheck(runner, identity: identity, vendor: vendor, tool: tool, gadget: gadget)
    }
    if identity == "nikon" {
        await runUSBLiveViewUnplugCheck(runner, gadget: gadget)
    }
}

/// Records a movie over USB through the camera API: the recording state, the new file it leaves on the card, and
/// its download.
private func runUSBRecordingCheck(_ runner: CheckRunner, identity: String, vendor: UInt16) async {
    await runner.run("usb-\(identity)-recording") {
        let device = try require(
            try USBCameraDevice.all().first { $0.vendorID == vendor }, "the simulated \(identity) is not attached")
        let camera = PTPCamera(endpoint: PTPUSBEndpoint(device: device))
        try await camera.connect()
        let files = Locked<[CameraFileItem]>([])
        let token = camera.addNewFileObserver { item in files.withLock { $0.append(item) } }
        try await camera.startVideoRecording()
        guard case .recording = camera.videoRecordingState else {
            throw CheckFailure(description: "not recording after the start: \(camera.videoRecordingState)")
        }
        try await Task.sleep(for: .seconds(1))
        try await camera.stopVideoRecording()
        try expect(camera.videoRecordingState == .notRecording, "still \(camera.videoRecordingState)")
        _ = await wait(upTo: .seconds(20)) { !files.withLock { $0 }.isEmpty }
        let movie = try require(files.withLock { $0 }.first, "no new file after the recording")
        try expect(movie.kind == .video, "the new file \(movie.name) is a \(movie.kind)")
        let bytes = try await camera.downloadData(of: movie)
        try await camera.disconnect()
        withExtendedLifetime(token) {}
        try expect(!bytes.isEmpty, "the movie downloaded empty")
        return "recorded for 1 s: \(movie.name) (\(movie.kind)) on the card, \(bytes.count) bytes downloaded"
    }
}

/// Kills a download in the middle of its data phase: the next program connects without a replug.
///
/// `viewfinder camera download` of the card's generated 5 GB file (`BIG.BIN`, one GetObject data phase, as it is over
/// 4 GiB) is killed with SIGKILL once it has saved 8 MB, which leaves the camera busy in the middle of the phase; the
/// next `viewfinder camera info` connects. A second killed download is followed by a transport the API opens, which
/// reports what it found and did (the camera busy, the transaction cancelled, a little stale data drained rather than
/// the rest of the file) and runs a session.
private func runKilledDownloadCheck(_ runner: CheckRunner, vendor: UInt16, manufacturer: String, tool: String) async {
    await runner.run("usb-generic-killed-download") {
        let name = "BIG.BIN"
        let device = try require(
            try USBCameraDevice.all().first { $0.vendorID == vendor }, "the simulated camera is not attached")
        let session = try await PTPSession.open(over: try PTPUSBTransport(device: device))
        var found: UInt32?
        for storage in try await session.storageIDs() {
            for handle in try await session.objectHandles(storageID: storage)
            where try await session.objectInfo(handle).filename == name {
                found = handle
            }
        }
        await session.close()
        let handle = try require(found, "no \(name) on the camera; is the simulator running with --generated-file?")

        /// Starts the download, kills it once 8 MB are saved, and returns how much was, and what it printed.
        func killMidDownload() async throws -> (saved: Int, output: String) {
            let folder = "/tmp/usb-killed-download"
            // A killed download leaves its partial file: the next one is watched from nothing.
            unlink("\(folder)/\(name).partial")
            let download = try ChildProcess(
                tool, ["camera", "download", String(handle), "--out", folder, "--usb", "any"], mergingErrors: true)
            var saved = 0
            let going = await wait(upTo: .seconds(120)) {
                var info = stat()
                saved = stat("\(folder)/\(name).partial", &info) == 0 ? Int(info.st_size) : 0
                return saved >= 8_000_000
            }
            download.signal(SIGKILL)
            let status = await offThePool { download.wait(timeout: .seconds(30)) }
            try expect(going, "the download saved \(saved) bytes in 2 minutes: \(download.standardOutput)")
            try expect(
                status == 128 + SIGKILL,
                "the download ended with \(status.map(String.init) ?? "?") before it was killed: "
                    + download.standardOutput)
            return (saved, download.standardOutput)
        }

        let (first, _) = try await killMidDownload()
        let info = try ChildProcess.run(
            tool, ["camera", "info", "--usb", "any"], mergingErrors: true, timeout: .seconds(90))
        try expect(
            info.status == 0 && info.standardOutput.contains(manufacturer),
            "camera info after a download killed after \(first) bytes: \(info.standardOutput)")

        let (second, output) = try await killMidDownload()
        let current = try require(
            try USBCameraDevice.all().first { $0.vendorID == vendor }, "the simulated camera is gone after the kill")
        try expect(current.location == device.location, "the camera moved from \(device) to \(current)")
        let transport = try PTPUSBTransport(device: current)
        let cleanup = transport.cleanup
        let again = try await PTPSession.open(over: transport)
        let storages = try await again.storageIDs()
        await again.close()
        try expect(
            cleanup.status == .deviceBusy && cleanup.cancelled && !cleanup.reset,
            "after a download killed after \(second) bytes the transport found \(cleanup); the download printed: "
                + output)
        try expect(
            cleanup.drainedBytes < PTPUSBTransport.Configuration().transferSize * 16,
            "the transport drained \(cleanup.drainedBytes) bytes")
        try expect(!storages.isEmpty, "no storage after the cleanup")
        return "killed after \(first / 1_000_000) MB, camera info connected at \(device.location); killed after "
            + "\(second / 1_000_000) MB, the next transport found the camera \(cleanup.status.map { "\($0)" } ?? "?"), "
            + "cancelled its transaction, drained \(cleanup.drainedBytes) bytes and \(cleanup.drainedEventTransfers) "
            + "event transfers, and opened a session (\(storages.count) storage)"
    }
}

/// Whether the file at `path` starts as a JPEG does.
private func isJPEG(_ path: String) -> Bool {
    guard let file = try? FileDescriptor.open(path, O_RDONLY), let bytes = try? file.readAll(limit: 64 << 20) else {
        return false
    }
    return bytes.count > 100 && bytes[0] == 0xFF && bytes[1] == 0xD8
}

/// Unplugs the simulated Nikon (its gadget unbound from the controller) while live view runs: the live view ends
/// with `disconnected` at once and the camera's descriptors and threads go; bound again, the camera is found at its
/// new address and shows live view again.
private func runUSBLiveViewUnplugCheck(_ runner: CheckRunner, gadget: String) async {
    await runner.run("usb-nikon-unplug-mid-live-view") {
        let controller = try require(Directory.names(in: "/sys/class/udc").first, "no USB device controller")
        let device = try require(
            try USBCameraDevice.all().first { $0.vendorID == 0x04B0 }, "the simulated Nikon is not attached")
        let baseline = ProcessResources()
        var camera: PTPCamera? = PTPCamera(endpoint: PTPUSBEndpoint(device: device))
        try await camera!.connect()
        let frames = Locked(0)
        let ended = Locked<(reason: Subscribers.Completion<LiveViewTerminationReason>, at: ContinuousClock.Instant)?>(
            nil)
        var watching: AnyCancellable? = camera!.liveViewPublisher(options: [.skipImageDecoding: true])
            .sinkWithReadyHandler { completion in
                ended.withLock { $0 = (completion, .now) }
            } receiveValue: { _, ready in
                frames.withLock { $0 += 1 }
                ready()
            }
        _ = await wait(upTo: .seconds(30)) { frames.withLock { $0 } >= 3 }
        let before = frames.withLock { $0 }
        try expect(before >= 3, "live view gave \(before) frames before the unplug")
        let unplugged = ContinuousClock.now
        try PlatformThread.detach(name: "unplug") { writeAttribute("\(gadget)/UDC", "") }
        _ = await wait(upTo: .seconds(15)) { ended.withLock { $0 } != nil }
        let (reason, at) = try require(ended.withLock { $0 }, "live view did not end after the unplug")
        guard case .failure(.failed(let error)) = reason, error.code == .disconnected else {
            throw CheckFailure(description: "live view ended with \(reason)")
        }
        let after = unplugged.duration(to: at)
        try expect(after < .seconds(5), "live view ended \(after) after the unplug")
        watching?.cancel()
        watching = nil
        try? await camera?.disconnect()
        camera = nil
        try await baseline.expectReleased(after: "the camera was released")
        writeAttribute("\(gadget)/UDC", controller)
        var back: USBCameraDevice?
        _ = await wait(upTo: .seconds(30)) {
            back = (try? USBCameraDevice.all())?.first { $0.vendorID == 0x04B0 }
            return back != nil
        }
        let again = PTPCamera(endpoint: PTPUSBEndpoint(device: device))
        try await again.connect()
        let more = Locked(0)
        let watchingAgain = again.liveViewPublisher(options: [.skipImageDecoding: true])
            .sinkWithReadyHandler { _ in
            } receiveValue: { _, ready in
                more.withLock { $0 += 1 }
                ready()
            }
        _ = await wait(upTo: .seconds(30)) { more.withLock { $0 } >= 2 }
        watchingAgain.cancel()
        try? await again.disconnect()
        try expect(more.withLock { $0 } >= 2, "no live view after plugging the camera back in")
        return "\(before) frames, then the unplug ended live view within \(after) with disconnected: "
            + "\(error.message); back to \(baseline); plugged back in as "
            + "\(back.map(\.description) ?? "?"), live view again"
    }
}
