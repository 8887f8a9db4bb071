import ViewfinderPTPUSB
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Checks the simulated Fujifilm X-T4 on USB with gphoto2's Fujifilm code paths (it takes them for vendor 0x04CB
/// with Fujifilm's extension description), beyond what every identity is checked for: gphoto2's ISO, f-number and
/// shutter speed choices are the values the tool offers, all three set by gphoto2 and read back by the tool, a file
/// downloaded with --get-file, and PriorityMode (0xD207), CameraAction (0xD208), AFStatus (0xD209) and the event
/// list (0xD212) in gphoto2's debug log of a capture, as libgphoto2's Fujifilm capture uses them.
///
/// - Parameters:
///   - device: The simulated camera, as the USB bus shows it.
///   - tool: The `viewfinder` tool.
///   - gphoto2: The gphoto2 program.
func runUSBFujiChecks(_ runner: CheckRunner, device: USBCameraDevice?, tool: String, gphoto2: String) async {
    await runner.run("usb-fuji-gphoto2-fuji") {
        let device = try require(device, "no simulated Fujifilm camera")
        let tools = USBVendorTools(device: device, tool: tool, gphoto2: gphoto2)
        let summary = try tools.gphoto2(["--summary"])
        try expect(
            summary.contains("Model: X-T4") && summary.contains("Vendor Extension ID: 0xe"),
            "gphoto2 did not take the X-T4 for a Fujifilm (vendor extension 0xe): \(summary)")
        let compared = try tools.compareAndSetExposure(shutter: "1/60")
        let file = "/tmp/usb-fuji-get-file.jpg"
        _ = try tools.gphoto2(["--get-file", "1", "--filename", file, "--force-overwrite"])
        let bytes = (try? FileDescriptor.open(file, O_RDONLY).readAll(limit: 64 << 20)) ?? []
        try expect(bytes.starts(with: [0xFF, 0xD8]), "gphoto2 --get-file 1 saved \(bytes.count) bytes, not a JPEG")
        let debug = try tools.debugLog(
            "/tmp/usb-fuji-gphoto2-debug.txt",
            of: ["--capture-image-and-download", "--filename", "/tmp/usb-fuji-debug.jpg", "--force-overwrite"])
        let properties = ["0xd207", "0xd208", "0xd209", "0xd212"]
        let missing = properties.filter { !debug.contains("property value) (\($0))") }
        try expect(missing.isEmpty, "gphoto2's debug log never shows \(missing)")
        return
            "\(tools.port): vendor extension 0xe; \(compared.joined(separator: ", ")) as viewfinder offers them; ISO 800, "
            + "f/8 and 1/60 set by gphoto2 and read back by viewfinder; --get-file 1 a JPEG of \(bytes.count) bytes; "
            + "\(properties.joined(separator: ", ")) in gphoto2's debug log of a capture"
    }
}
