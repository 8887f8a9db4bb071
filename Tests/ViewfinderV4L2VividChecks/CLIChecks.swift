import ViewfinderCore
import ViewfinderTestSupport
import ViewfinderV4L2

#if canImport(Glibc)
import Glibc
#endif

/// Runs the static `viewfinder` tool at `path` against vivid's /dev/video0 and /dev/video1: the capture-device
/// commands as users type them, checked by their output, exit codes, the files they write, and what the device
/// reports back through the library.
func runCLIChecks(_ runner: CheckRunner, tool path: String) async {
    func viewfinder(_ arguments: String...) throws -> ChildProcess.Result {
        try ChildProcess.run(path, arguments, timeout: .seconds(60))
    }
    func succeed(_ arguments: String...) throws -> String {
        let result = try ChildProcess.run(path, arguments, timeout: .seconds(60))
        try expect(result.status == 0, "viewfinder \(arguments.joined(separator: " ")) ended with \(result)")
        return result.standardOutput
    }
    let camera = CaptureDevice(path: "/dev/video0", name: "", bus: "", driver: "", capabilities: 0)

    await runner.run("cli-devices") {
        let json = try succeed("devices", "--json")
        let paths = json.split(separator: "\n").filter { $0.contains("\"path\"") }
        try expect(paths.count == 2, "devices --json lists \(paths.count) paths:\n\(json)")
        try expect(json.contains("\"/dev/video0\"") && json.contains("\"/dev/video1\""), "\(json)")
        try expect(json.contains("\"driver\" : \"vivid\"") && !json.contains("/dev/video2"), "\(json)")
        let table = try succeed("devices")
        try expect(table.contains("0  /dev/video0  vivid") && table.contains("1  /dev/video1"), "\(table)")
        return "2 devices in JSON and in the table"
    }

    await runner.run("cli-formats") {
        let table = try succeed("formats", "/dev/video0")
        let rows = table.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        let yuyv = rows.first { $0.count >= 3 && $0[0] == "640x480" && $0[1] == "yuyv" }
        try expect(yuyv?.contains("25") == true, "no 640x480 yuyv row with 25 fps in:\n\(table)")
        try expect(rows.contains { $0.count >= 3 && $0[0] == "1920x1080" && $0[1] == "nv12" }, "no 1080p nv12 row")
        try expect(table.contains("viewfinder capture /dev/video0 --format 640x480@25/nv12"), "no usable example")
        let json = try succeed("formats", "video0", "--json")
        try expect(json.contains("\"format\" : \"640x480@25/yuyv\""), "formats --json lacks 640x480@25/yuyv")
        return
            "\(rows.count - 2) rows; JSON has \(json.split(separator: "\n").filter { $0.contains("\"format\"") }.count) formats"
    }

    await runner.run("cli-controls") {
        let json = try succeed("controls", "/dev/video0", "--json")
        for text in ["\"key\" : \"brightness\"", "\"key\" : \"test_pattern\"", "\"name\" : \"100% Colorbar\""] {
            try expect(json.contains(text), "controls --json lacks \(text)")
        }
        let table = try succeed("controls", "/dev/video0")
        let brightness = table.split(separator: "\n").first { $0.hasPrefix("brightness ") }
        try expect(brightness?.hasSuffix("0...255") == true, "the brightness row is \(String(describing: brightness))")
        let ambiguous = try viewfinder("controls", "vivid")
        try expect(ambiguous.status == 64, "a name both devices share: \(ambiguous)")
        try expect(ambiguous.standardError.contains("'vivid' matches 2 capture devices"), "\(ambiguous)")
        return "brightness row: \(brightness ?? "")"
    }

    await runner.run("cli-set-control") {
        let output = try succeed("set-control", "/dev/video0", "brightness", "200")
        try expect(output.hasPrefix("brightness = 200 (was "), "set-control printed \(output)")
        let readBack = try CameraSource.value(ofControl: V4L2ControlID.brightness, on: camera)
        try expect(readBack == 200, "the device reports brightness \(readBack) after set-control 200")
        let listed = try succeed("controls", "/dev/video0")
        let row = listed.split(separator: "\n").first { $0.hasPrefix("brightness ") }
        try expect(row?.split(separator: " ").contains("200") == true, "controls shows \(String(describing: row))")

        let outOfRange = try viewfinder("set-control", "/dev/video0", "brightness", "300")
        try expect(outOfRange.status == 65, "brightness 300: \(outOfRange)")
        try expect(outOfRange.standardError.contains("a whole number from 0 to 255"), "\(outOfRange)")
        let misspelt = try viewfinder("set-control", "/dev/video0", "brightnes", "1")
        try expect(misspelt.status == 66 && misspelt.standardError.contains("did you mean brightness"), "\(misspelt)")

        let menu = try succeed("set-control", "/dev/video0", "Test Pattern", "100% colorbar")
        let controls = try CameraSource.controls(for: camera)
        let pattern = try require(controls.first { $0.name == "Test Pattern" }, "no Test Pattern control")
        let entry = try require(pattern.menu.first { $0.name == "100% Colorbar" }, "no 100% Colorbar entry")
        let selected = try CameraSource.value(ofControl: pattern.id, on: camera)
        try expect(Int64(selected) == entry.index, "Test Pattern is \(selected), not entry \(entry.index)")
        _ = try succeed("set-control", "/dev/video0", "test_pattern", "0")
        _ = try succeed("set-control", "/dev/video0", "brightness", "default")
        let restored = try CameraSource.value(ofControl: V4L2ControlID.brightness, on: camera)
        try expect(restored == 128, "brightness default restored \(restored), not 128")
        return "read back 200; menu entry by name: \(menu.split(separator: "\n").first ?? "")"
    }

    await runner.run("cli-capture") {
        let output = try succeed(
            "capture", "/dev/video0", "--format", "640x480@25/yuyv", "--frames", "10", "--out", "/tmp/shots")
        for number in 1...10 {
            let name = "/tmp/shots/video0-\(number < 10 ? "000" : "00")\(number).jpg"
            let bytes = try readFile(name)
            let size = JPEGCheck.dimensions(of: bytes)
            try expect(size?.width == 640 && size?.height == 480, "\(name) is not a 640x480 JPEG (\(bytes.count) B)")
            try expect((5_000...640 * 480 * 2).contains(bytes.count), "\(name) has \(bytes.count) bytes")
            try expect(output.contains("\(name)  640x480  "), "the output does not list \(name):\n\(output)")
        }
        let summary = try require(output.split(separator: "\n").last { $0.hasPrefix("Saved 10 frames") }, output)
        let fps = try require(number(after: "/tmp/shots: ", in: String(summary)), "no fps in \(summary)")
        try expect(abs(fps - 25) <= 2.5, "measured \(fps) fps at 25 fps: \(summary)")
        try expect(summary.contains(" by the driver and ") && summary.hasSuffix(" while saving"), "\(summary)")

        let json = try succeed(
            "capture", "1", "--format", "320x180@30/nv12", "--frames", "3", "--out", "/tmp/shots-json", "--json")
        try expect(
            json.contains("\"measuredFramesPerSecond\" : ") && json.contains("\"/tmp/shots-json/video1-0003.jpg\""),
            json)
        let third = JPEGCheck.dimensions(of: try readFile("/tmp/shots-json/video1-0003.jpg"))
        try expect(third?.width == 320 && third?.height == 180, "video1-0003.jpg is not a 320x180 JPEG")
        return String(summary)
    }

    await runner.run("cli-capture-unplugged") {
        let process = try ChildProcess(path, ["capture", "/dev/video0", "--frames", "1000", "--out", "/tmp/long"])
        let saving = process.waitForOutput(timeout: .seconds(20)) { $0.contains("/tmp/long/video0-0003.jpg") }
        try expect(saving, "capture did not save three frames: \(process.standardOutput) \(process.standardError)")
        try setControl(VividControl.disconnect, to: 1, on: camera.path)
        let status = process.wait(timeout: .seconds(10))
        try expect(status == 69, "capture ended with \(String(describing: status)) after the unplug")
        let message = process.standardError
        try expect(message.contains("capture from vivid (/dev/video0) stopped after "), message)
        try expect(message.contains("Check the device's cable"), message)
        let back = await wait(upTo: .seconds(5)) { CameraSource.captureDevices.count == 2 }
        try expect(back, "vivid did not reconnect after the tool closed the device")
        return message.split(separator: "\n").first.map(String.init) ?? ""
    }

    await runner.run("cli-errors") {
        let size = try viewfinder("capture", "/dev/video0", "--format", "1234x567")
        try expect(size.status == 65 && size.standardError.contains("its sizes are 320x180, 640x360"), "\(size)")
        let rate = try viewfinder("capture", "/dev/video0", "--format", "640x480@60/yuyv")
        try expect(rate.status == 65 && rate.standardError.contains("at 640x480 it offers"), "\(rate)")
        let output = try viewfinder("formats", "/dev/video2")
        try expect(output.status == 66 && output.standardError.contains("not a video capture device"), "\(output)")
        let missing = try viewfinder("controls", "/dev/video7")
        try expect(missing.status == 66 && missing.standardError.contains("there is no /dev/video7"), "\(missing)")
        let number = try viewfinder("formats", "5")
        try expect(number.status == 66 && number.standardError.contains("this machine has 2"), "\(number)")
        let unwritable = try viewfinder("capture", "/dev/video0", "--out", "/proc/viewfinder")
        try expect(unwritable.status == 73, "capture into /proc: \(unwritable)")
        return "exit codes 65, 65, 66, 66, 66, 73 with messages"
    }

    await runner.run("cli-preview") {
        let process = try ChildProcess(path, ["preview", "/dev/video0", "--format", "640x480@25/yuyv"])
        try expect(process.waitForOutput(timeout: .seconds(20)) { $0.contains("Ctrl-C stops") }, process.standardError)
        let output = process.standardOutput
        try expect(output.hasPrefix("Previewing vivid (/dev/video0) at 640x480@25/yuyv"), output)
        let port = try require(number(after: "http://127.0.0.1:", in: output).map { UInt16($0) }, output)
        // Everything but the page needs the token the address holds.
        let token = try require(
            output.firstRange(of: "?token=").map {
                ["X-Viewfinder-Token": String(output[$0.upperBound...].prefix { $0.isHexDigit })]
            },
            output)
        let page = try HTTPTestClient.get(port: port, "/")
        try expect(page.status == 200 && page.text.contains("/stream.mjpeg"), "the page answered \(page.status)")
        let stream = try MJPEGTestReader(port: port, headers: token)
        var numbers: [Int] = []
        for _ in 0..<5 {
            let part = try stream.readPart()
            let size = JPEGCheck.dimensions(of: part.body)
            try expect(size?.width == 640 && size?.height == 480, "a part is not a 640x480 JPEG")
            numbers.append(Int(part.headers["x-frame-number"] ?? "") ?? -1)
        }
        try expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "frame numbers \(numbers)")
        let stats = try HTTPTestClient.get(port: port, "/stats", headers: token).text
        try expect(stats.contains("\"source\":\"vivid (/dev/video0)\""), stats)
        let snapshot = try HTTPTestClient.get(port: port, "/snapshot.jpg", headers: token)
        try expect(JPEGCheck.dimensions(of: snapshot.body)?.width == 640, "the snapshot is not a 640x480 JPEG")
        process.interrupt()
        let status = process.wait(timeout: .seconds(10))
        try expect(status == 0, "preview ended with \(String(describing: status)): \(process.standardError)")
        _ = try succeed("capture", "/dev/video0", "--frames", "1", "--out", "/tmp/after-preview")
        return "frames \(numbers) as 640x480 JPEGs; stats \(stats.count) B; the device was free after Ctrl-C"
    }
}

/// The whole contents of a file.
private func readFile(_ path: String) throws -> [UInt8] {
    guard let file = fopen(path, "rb") else { throw CheckFailure(description: "cannot open \(path)") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count == 0 { return bytes }
        bytes += chunk[..<count]
    }
}

/// The number right after `prefix` in `text`, such as the port in `http://127.0.0.1:8080/`.
private func number(after prefix: String, in text: String) -> Double? {
    guard let range = text.firstRange(of: prefix) else { return nil }
    return Double(text[range.upperBound...].prefix { $0.isNumber || $0 == "." })
}
