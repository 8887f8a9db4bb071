import ViewfinderPTPUSB

/// Checks a simulated Sony body on USB with gphoto2's Sony code paths, beyond what every identity is checked for:
/// gphoto2's ISO, f-number and shutter speed choices are the values the tool offers, all three set by gphoto2 and
/// read back by the tool (directly on the α7 IV, by notches on the α7 III), live view as a 10-frame movie, and the
/// SDIO operations (SDIOConnect, GetExtDeviceInfo, GetAllDevicePropData, SetControlDeviceB) in gphoto2's debug log of
/// an ISO set and a capture.
///
/// - Parameters:
///   - identity: `sony` or `sony-stepping`.
///   - device: The simulated camera, as the USB bus shows it.
///   - tool: The `viewfinder` tool.
///   - gphoto2: The gphoto2 program.
func runUSBSonyChecks(
    _ runner: CheckRunner, identity: String, device: USBCameraDevice?, tool: String, gphoto2: String
) async {
    await runner.run("usb-\(identity)-gphoto2-sony") {
        let device = try require(device, "no simulated \(identity) camera")
        let tools = USBVendorTools(device: device, tool: tool, gphoto2: gphoto2)
        let compared = try tools.compareAndSetExposure(shutter: "1/250")
        let movie = try tools.gphoto2(["--capture-movie=10"])
        try expect(movie.contains("Movie capture finished (11 frames)"), "gphoto2 --capture-movie=10: \(movie)")
        let debug = try tools.debugLog(
            "/tmp/usb-\(identity)-gphoto2-debug.txt",
            of: [
                "--set-config", "iso=400", "--capture-image-and-download", "--filename",
                "/tmp/usb-\(identity)-debug.jpg",
                "--force-overwrite",
            ])
        let operations = ["0x9201", "0x9202", "0x9209", "0x9207"]
        let missing = operations.filter { !debug.contains("PTP_OC \($0)") }
        try expect(missing.isEmpty, "gphoto2's debug log never shows \(missing)")
        return
            "\(tools.port): \(compared.joined(separator: ", ")) as viewfinder offers them; ISO 800, f/8 and 1/250 set by "
            + "gphoto2 and read back by viewfinder; an 11-frame live view movie; \(operations.joined(separator: ", ")) "
            + "in gphoto2's debug log"
    }
}
