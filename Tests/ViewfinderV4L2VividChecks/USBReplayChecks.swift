import ViewfinderCore
import ViewfinderPTPUSB
import ViewfinderTestSupport

/// The traces played back over USB in the VM, and what the tool must show of each, as its log shows it.
enum USBReplay {
    static let all: [String: (model: String, values: [String: String])] = [
        "canon-eos60d": ("Canon EOS 60D", ["iso": "ISO 1600", "aperture": "f/4"]),
        "nikon-z6": ("Z 6", ["iso": "ISO 160", "shutter": "1/25"]),
        "sony-a7sm3": ("ILCE-7SM3", [:]),
    ]
}

/// Checks real cameras played back over USB (`viewfinder simulate --replay LOG --usb`, a FunctionFS gadget on
/// dummy_hcd): the tool finds the replayed camera by its still-image class, connects over its own USB transport, and
/// shows what the log shows of the camera: who it is, and its properties' values.
///
/// - Parameters:
///   - name: The check's name, such as `canon-eos60d`.
///   - tool: The `viewfinder` tool.
///   - model: The model the log's camera reports.
///   - values: Property names and the values `camera get` must print for them, as the log shows them.
func runUSBReplayCheck(_ runner: CheckRunner, name: String, tool: String, model: String, values: [String: String])
    async
{
    _ = await wait(upTo: .seconds(30)) { !((try? USBCameraDevice.all()) ?? []).isEmpty }
    await runner.run("usb-replay-\(name)") {
        let device = try require(USBCameraDevice.all().first, "the replayed camera is not attached")
        func run(_ arguments: [String]) throws -> String {
            let result = try ChildProcess.run(
                tool, ["camera"] + arguments + ["--usb", "any"], mergingErrors: true, timeout: .seconds(90))
            try expect(
                result.status == 0, "viewfinder camera \(arguments.joined(separator: " ")): \(result.standardOutput)")
            return result.standardOutput
        }
        let info = try run(["info"])
        try expect(info.contains(model), "camera info does not name \(model): \(info)")
        var shown: [String] = []
        for (property, value) in values.sorted(by: { $0.key < $1.key }) {
            let output = try run(["get", property])
            try expect(output.contains(value), "camera get \(property): \(output), not \(value)")
            shown.append("\(property) \(value)")
        }
        return "usb:\(device.location) is the \(model) of the log"
            + (shown.isEmpty ? "" : ", showing \(shown.joined(separator: ", "))")
    }
}
