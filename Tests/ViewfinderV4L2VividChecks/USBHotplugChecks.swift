import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPUSB
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Plugs the simulated camera out and in again (its gadget unbound from the controller and bound again): a
/// `USBCameraMonitor`, which looks again by itself only once an hour here, hears both from the kernel's device
/// events at once, and `viewfinder discover --watch --json` prints the camera lost and found again.
///
/// - Parameters:
///   - identity: The identity the simulator runs as, for the check's name.
///   - vendor: The simulated camera's vendor ID.
///   - tool: The `viewfinder` tool.
///   - gadget: The gadget's configfs folder, whose `UDC` file binds and unbinds it.
func runUSBHotplugCheck(_ runner: CheckRunner, identity: String, vendor: UInt16, tool: String, gadget: String) async {
    await runner.run("usb-\(identity)-hotplug") {
        let controller = try require(Directory.names(in: "/sys/class/udc").first, "no USB device controller")
        let monitor = USBCameraMonitor(rescanInterval: .seconds(3600))
        let heard = Locked<[(change: USBCameraMonitor.Change, at: ContinuousClock.Instant)]>([])
        let token = monitor.addObserver { changes in
            let now = ContinuousClock.now
            heard.withLock { $0 += changes.map { ($0, now) } }
        }
        try monitor.start()
        defer { monitor.stop() }
        try expect(monitor.listensToKernel, "the kernel's device events do not reach the monitor")
        let camera = try require(
            monitor.cameras.first { $0.vendorID == vendor }, "the simulated camera is not among \(monitor.cameras)")
        _ = await wait(upTo: .seconds(10)) { heard.withLock { $0.contains { $0.change == .attached(camera) } } }
        let watcher = try ChildProcess(tool, ["discover", "--watch", "--json"])
        defer { watcher.interrupt() }
        let listed = await offThePool {
            watcher.waitForOutput(timeout: .seconds(60)) { $0.contains("\"usb:\(camera.location)\"") }
        }
        try expect(listed, "discover --watch did not list usb:\(camera.location): \(watcher.standardOutput)")

        let unplugged = ContinuousClock.now
        try PlatformThread.detach(name: "unplug") { writeAttribute("\(gadget)/UDC", "") }
        _ = await wait(upTo: .seconds(20)) { heard.withLock { $0.contains { $0.change == .detached(camera) } } }
        let detached = try require(
            heard.withLock { $0.first { $0.change == .detached(camera) } }, "no detached change after the unplug")
        let lost = await offThePool {
            watcher.waitForOutput(timeout: .seconds(30)) { $0.contains("\"lost\"") }
        }
        try expect(lost, "discover --watch did not print the camera lost: \(watcher.standardOutput)")

        let replugged = ContinuousClock.now
        writeAttribute("\(gadget)/UDC", controller)
        func attachedAgain() -> (change: USBCameraMonitor.Change, at: ContinuousClock.Instant)? {
            heard.withLock { heard in
                heard.first {
                    if case .attached(let device) = $0.change {
                        device.vendorID == vendor && device != camera
                    } else {
                        false
                    }
                }
            }
        }
        _ = await wait(upTo: .seconds(30)) { attachedAgain() != nil }
        let attached = try require(attachedAgain(), "no attached change after plugging the camera back in")
        guard case .attached(let back) = attached.change else { throw CheckFailure(description: "unreachable") }
        let found = await offThePool {
            watcher.waitForOutput(timeout: .seconds(30)) { $0.contains("\"usb:\(back.location)\"") }
        }
        try expect(found, "discover --watch did not print the camera found again: \(watcher.standardOutput)")
        let lines = watcher.standardOutput.split(separator: "\n").filter { $0.contains("\"usb:") }.map {
            $0.contains("\"lost\"") ? "lost" : $0.contains("\"found\"") ? "found" : "other"
        }
        try expect(lines == ["found", "lost", "found"], "discover --watch printed \(watcher.standardOutput)")
        withExtendedLifetime(token) {}
        return "unplugged: detached after \(unplugged.duration(to: detached.at)); plugged in: attached at usb "
            + "\(back.location) after \(replugged.duration(to: attached.at)), from the kernel's events (no rescan "
            + "within the hour); discover --watch printed found, lost, found"
    }
}

/// Opens the simulated camera as a user who may not (nobody, after the process dropped root): the camera is still
/// listed, but opening it fails with `permissionDenied` naming the udev rule, through the API and through the tool.
///
/// - Parameter tool: The `viewfinder` tool, run as the same user.
func runUSBPermissionCheck(_ runner: CheckRunner, tool: String) async {
    await runner.run("usb-permission-denied") {
        let device = try require(USBCameraDevice.all().first, "no USB camera is attached")
        // Root may open any device file: this check runs as nobody, as a user without a udev rule would.
        var groups: [gid_t] = []
        try expect(setgroups(0, &groups) == 0 && setgid(65534) == 0 && setuid(65534) == 0, "cannot become nobody")
        try expect(getuid() == 65534 && access(device.path, R_OK | W_OK) != 0, "\(device.path) is still open to us")
        do {
            let transport = try await PTPUSBEndpoint(device: device).openTransport()
            transport.close(gracefully: false)
            throw CheckFailure(description: "nobody opened \(device.path)")
        } catch let error as ViewfinderError {
            try expect(
                error.code == .permissionDenied && error.message.contains("SUBSYSTEM==\"usb\""),
                "opening as nobody failed with \(error.code): \(error.message)")
        }
        let result = try ChildProcess.run(tool, ["camera", "info", "--usb", "any"], timeout: .seconds(60))
        try expect(
            result.status != 0 && result.standardError.contains("udev rule")
                && result.standardError.contains("idVendor"),
            "viewfinder camera info as nobody: \(result)")
        let hint = result.standardError.split(separator: "\n").first { $0.contains("udev rule") } ?? ""
        return "\(device) listed; opening it as nobody: permissionDenied; the tool exits \(result.status): \(hint)"
    }
}
