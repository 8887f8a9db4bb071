import Foundation
import ViewfinderCore
import ViewfinderTestSupport

/// Measures `viewfinder webcam` against the recipe forums give, `gphoto2 --capture-movie --stdout | ffmpeg … -f v4l2`,
/// at 1280x720, 30 frames a second in YUYV, from the same simulated Nikon in the same run, both writing to the same
/// v4l2loopback device (`output`), as in real use.
///
/// The figure is CPU per output frame: the tool's whole CPU (its own process), and gphoto2's and ffmpeg's together
/// (the shell that runs the pipe waits for both, so its resource usage holds theirs), over the frames each wrote.
/// The simulated camera runs in a process of its own and is not counted. Prints the figures and their ratio; returns
/// whether the target (at most half the recipe's CPU per frame) was met.
func runWebcamBenchmark(tool: String, output: String, seconds: Int) -> Bool {
    func say(_ line: String) { print("VIVID BENCH webcam: \(line)") }
    let (width, height) = (1280, 720)
    do {
        let camera = try ChildProcess(tool, ["simulate", "--identity", "nikon", "--port", "15740"])
        defer {
            camera.interrupt()
            _ = camera.wait(timeout: .seconds(10))
        }
        guard camera.waitForOutput(timeout: .seconds(30), until: { $0.contains("listening") }) else {
            say("FAIL the simulated camera did not start: \(camera.standardOutput)")
            return false
        }

        let webcam = try ChildProcess.run(
            tool,
            [
                "webcam", output, "--host", "127.0.0.1:15740", "--family", "nikon", "--format", "\(width)x\(height)@30",
                "--duration", "\(seconds)", "--json",
            ], timeout: .seconds(seconds + 60))
        let line = webcam.standardOutput
        let summary = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        guard webcam.status == 0, let written = summary?["framesWritten"] as? Int, written > 0 else {
            say("FAIL viewfinder webcam: \(webcam)")
            return false
        }
        let ours = webcam.cpuSeconds / Double(written)
        say(
            "viewfinder webcam: \(written) frames in \(String(format: "%.1f", webcam.wallSeconds)) s, "
                + "\(summary?["framesFromSource"] ?? 0) from the camera, \(Int(ours * 1e6)) µs CPU per output frame")

        let filter =
            "scale=\(width):\(height):force_original_aspect_ratio=decrease,"
            + "pad=\(width):\(height):(ow-iw)/2:(oh-ih)/2,format=yuyv422"
        let pipeline =
            "gphoto2 --port ptpip:127.0.0.1:15740:15740 --camera 'Nikon DSLR (WLAN)' --capture-movie=\(seconds)s "
            + "--stdout 2>/tmp/gphoto2.log | ffmpeg -hide_banner -nostdin -use_wallclock_as_timestamps 1 -f mjpeg -i - -vf '\(filter)' "
            + "-r 30 -f v4l2 \(output)"
        let recipe = try ChildProcess.run("/bin/sh", ["-c", pipeline], timeout: .seconds(seconds + 90))
        // ffmpeg's last progress line: "frame=  598 fps= 30 ...".
        let progress = recipe.standardError.split(whereSeparator: { $0 == "\r" || $0 == "\n" })
            .last { $0.contains("frame=") }
        let frames =
            progress.flatMap { line in
                line.split(separator: "=", maxSplits: 1).last?.split(separator: " ").first.flatMap { Int($0) }
            } ?? 0
        guard frames >= seconds else {
            let gphoto2 = (try? String(contentsOfFile: "/tmp/gphoto2.log", encoding: .utf8)) ?? ""
            func tail(_ text: String) -> String {
                String(text.replacingOccurrences(of: "\r", with: "\n").suffix(800)).debugDescription
            }
            say(
                "FAIL the gphoto2 | ffmpeg recipe wrote \(frames) frames (status \(recipe.status), "
                    + "\(recipe.wallSeconds) s); output: \(tail(recipe.standardOutput)); errors: "
                    + "\(tail(recipe.standardError)); gphoto2: \(tail(gphoto2))")
            return false
        }
        let theirs = recipe.cpuSeconds / Double(frames)
        say(
            "gphoto2 | ffmpeg: \(frames) frames in \(String(format: "%.1f", recipe.wallSeconds)) s, "
                + "\(Int(theirs * 1e6)) µs CPU per output frame")
        let ratio = ours / theirs
        let met = ratio <= 0.5
        say(
            "CPU per output frame \(String(format: "%.2f", ratio))× the recipe's; target ≤ 0.5×: "
                + (met ? "met" : "NOT MET"))
        return met
    } catch {
        say("FAIL \(error)")
        return false
    }
}
