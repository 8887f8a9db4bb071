import ViewfinderPTPUSB
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

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
        let port = "usb:\(String(format: "%03d", device.bus)),\(String(format: "%03d", device.address))"
        func run(_ arguments: [String]) throws -> String {
            let result = try ChildProcess.run(
                gphoto2, ["--port", port] + arguments, environment: ["HOME": "/tmp"], mergingErrors: true,
                timeout: .seconds(90))
            try expect(
                result.status == 0 && !result.standardOutput.contains("*** Error"),
                "gphoto2 \(arguments.joined(separator: " ")): \(result.standardOutput)")
            return result.standardOutput
        }
        func viewfinder(_ arguments: [String]) throws -> String {
            let result = try ChildProcess.run(
                tool, ["camera"] + arguments + ["--usb", "any"], mergingErrors: true, timeout: .seconds(90))
            try expect(
                result.status == 0, "viewfinder camera \(arguments.joined(separator: " ")): \(result.standardOutput)")
            return result.standardOutput
        }
        let compared = try compareExposureChoices(gphoto2: run, viewfinder: viewfinder)
        _ = try run(["--set-config", "iso=800", "--set-config", "f-number=f/8", "--set-config", "shutterspeed=1/250"])
        let shown = try ["iso", "aperture", "shutter"].map {
            try viewfinder(["get", $0]).split(separator: "\n").first.map(String.init) ?? ""
        }
        try expect(shown == ["ISO 800", "f/8", "1/250"], "viewfinder reads back \(shown) after gphoto2's set")
        let movie = try run(["--capture-movie=10"])
        try expect(movie.contains("Movie capture finished (11 frames)"), "gphoto2 --capture-movie=10: \(movie)")
        let log = "/tmp/usb-\(identity)-gphoto2-debug.txt"
        _ = try run([
            "--debug", "--debug-logfile", log, "--set-config", "iso=400", "--capture-image-and-download", "--filename",
            "/tmp/usb-\(identity)-debug.jpg", "--force-overwrite",
        ])
        let debug = String(
            decoding: (try? FileDescriptor.open(log, O_RDONLY).readAll(limit: 256 << 20)) ?? [], as: UTF8.self)
        let operations = ["0x9201", "0x9202", "0x9209", "0x9207"]
        let missing = operations.filter { !debug.contains("PTP_OC \($0)") }
        try expect(missing.isEmpty, "gphoto2's debug log never shows \(missing)")
        return "\(port): \(compared.joined(separator: ", ")) as viewfinder offers them; ISO 800, f/8 and 1/250 set by "
            + "gphoto2 and read back by viewfinder; an 11-frame live view movie; \(operations.joined(separator: ", ")) "
            + "in gphoto2's debug log"
    }
}
