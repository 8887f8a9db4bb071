import ViewfinderPTPUSB
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// gphoto2 and the `viewfinder` tool pointed at one simulated camera on USB, for the checks of a vendor's code paths
/// in gphoto2 (`runUSBFujiChecks`, `runUSBSonyChecks`).
struct USBVendorTools {
    /// gphoto2's name of the camera's port, `usb:BUS,ADDRESS`.
    let port: String
    /// The gphoto2 program.
    let gphoto2Path: String
    /// The `viewfinder` tool.
    let toolPath: String

    /// Points gphoto2 and the tool at `device`.
    init(device: USBCameraDevice, tool: String, gphoto2: String) {
        port = "usb:\(String(format: "%03d", device.bus)),\(String(format: "%03d", device.address))"
        gphoto2Path = gphoto2
        toolPath = tool
    }

    /// Runs gphoto2 on the camera's port and returns what it printed.
    ///
    /// - Throws: `CheckFailure` when gphoto2 fails or prints an error.
    func gphoto2(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.run(
            gphoto2Path, ["--port", port] + arguments, environment: ["HOME": "/tmp"], mergingErrors: true,
            timeout: .seconds(90))
        try expect(
            result.status == 0 && !result.standardOutput.contains("*** Error"),
            "gphoto2 \(arguments.joined(separator: " ")): \(result.standardOutput)")
        return result.standardOutput
    }

    /// Runs `viewfinder camera ARGUMENTS --usb any` and returns what it printed.
    ///
    /// - Throws: `CheckFailure` when the tool fails.
    func viewfinder(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.run(
            toolPath, ["camera"] + arguments + ["--usb", "any"], mergingErrors: true, timeout: .seconds(90))
        try expect(
            result.status == 0, "viewfinder camera \(arguments.joined(separator: " ")): \(result.standardOutput)")
        return result.standardOutput
    }

    /// Compares gphoto2's ISO, f-number and shutter speed choices with the tool's, then sets ISO 800, f/8 and
    /// `shutter` with gphoto2 and checks that the tool reads the three back.
    ///
    /// - Returns: How many values of each were compared, such as "27 iso values".
    /// - Throws: `CheckFailure` when the choices differ or the tool reads back other values.
    func compareAndSetExposure(shutter: String) throws -> [String] {
        let compared = try compareExposureChoices(gphoto2: gphoto2, viewfinder: viewfinder)
        _ = try gphoto2([
            "--set-config", "iso=800", "--set-config", "f-number=f/8", "--set-config", "shutterspeed=\(shutter)",
        ])
        let shown = try ["iso", "aperture", "shutter"].map {
            try viewfinder(["get", $0]).split(separator: "\n").first.map(String.init) ?? ""
        }
        try expect(shown == ["ISO 800", "f/8", shutter], "viewfinder reads back \(shown) after gphoto2's set")
        return compared
    }

    /// Runs gphoto2 with `arguments` and its debug log written to `log`, and returns the log.
    ///
    /// - Throws: `CheckFailure` when gphoto2 fails or prints an error.
    func debugLog(_ log: String, of arguments: [String]) throws -> String {
        _ = try gphoto2(["--debug", "--debug-logfile", log] + arguments)
        return String(
            decoding: (try? FileDescriptor.open(log, O_RDONLY).readAll(limit: 256 << 20)) ?? [], as: UTF8.self)
    }
}
