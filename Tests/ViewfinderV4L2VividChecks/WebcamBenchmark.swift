import Foundation
import ViewfinderCore
import ViewfinderTestSupport

/// Measures `viewfinder webcam` against the recipe forums give, `gphoto2 --capture-movie --stdout | ffmpeg … -f v4l2`,
/// at 1280x720, 30 frames a second in YUYV, from the same simulated Nikon in the same run, both writing to the same
/// v4l2loopback device (`output`), as in real use.
///
/// The figure is CPU per output frame: the tool's whole CPU (its own process), and gphoto2's and ffmpeg's together
/// (the shell that runs the pipe waits for both, so its resource usage holds theirs), over the frames each wrote.
/// The simulated camera runs in a process of its own and is not counted. The two take turns, `rounds` times each, as
/// one run of either varies by several percent under emulation; the ratio is of their medians. Prints every run, the
/// medians and their ratio; returns whether the target (at most half the recipe's CPU per frame) was met.
func runWebcamBenchmark(tool: String, output: String, seconds: Int, rounds: Int = 3) -> Bool {
    func say(_ line: String) { print("VIVID BENCH webcam: \(line)") }
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
        var ours: [Double] = []
        var theirs: [Double] = []
        for round in 1...rounds {
            let tool = try WebcamRun.tool(tool, output: output, seconds: seconds)
            say("round \(round): viewfinder webcam: \(tool)")
            let recipe = try WebcamRun.recipe(output: output, seconds: seconds)
            say("round \(round): gphoto2 | ffmpeg: \(recipe)")
            ours.append(tool.cpuPerFrame)
            theirs.append(recipe.cpuPerFrame)
        }
        func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1
                ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let (oursMedian, theirsMedian) = (median(ours), median(theirs))
        say(
            "median CPU per output frame over \(rounds) rounds: viewfinder webcam \(Int(oursMedian * 1e6)) µs, "
                + "gphoto2 | ffmpeg \(Int(theirsMedian * 1e6)) µs")
        let ratio = oursMedian / theirsMedian
        let met = ratio <= 0.5
        say(
            "CPU per output frame \(String(format: "%.2f", ratio))× the recipe's; target ≤ 0.5×: "
                + (met ? "met" : "NOT MET"))
        return met
    } catch let failure as WebcamRun.Failure {
        say("FAIL \(failure.description)")
        return false
    } catch {
        say("FAIL \(error)")
        return false
    }
}

/// One timed run of either pipeline: the frames it wrote, its wall time and its CPU per frame written.
struct WebcamRun: CustomStringConvertible {
    let frames: Int
    let wallSeconds: Double
    let cpuPerFrame: Double
    /// What else the run said about itself, such as how many frames came from the camera.
    let detail: String

    /// Why a run gave no figure.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    var description: String {
        "\(frames) frames in \(String(format: "%.1f", wallSeconds)) s\(detail), "
            + "\(Int(cpuPerFrame * 1e6)) µs CPU per output frame"
    }

    static let (width, height) = (1280, 720)

    /// `viewfinder webcam` for `seconds`, from the simulated camera on port 15740.
    static func tool(_ tool: String, output: String, seconds: Int) throws -> WebcamRun {
        let webcam = try ChildProcess.run(
            tool,
            [
                "webcam", output, "--host", "127.0.0.1:15740", "--family", "nikon", "--format", "\(width)x\(height)@30",
                "--duration", "\(seconds)", "--json",
            ], timeout: .seconds(seconds + 60))
        let summary = (try? JSONSerialization.jsonObject(with: Data(webcam.standardOutput.utf8))) as? [String: Any]
        guard webcam.status == 0, let written = summary?["framesWritten"] as? Int, written > 0 else {
            throw Failure(description: "viewfinder webcam: \(webcam)")
        }
        return WebcamRun(
            frames: written, wallSeconds: webcam.wallSeconds, cpuPerFrame: webcam.cpuSeconds / Double(written),
            detail: ", \(summary?["framesFromSource"] ?? 0) from the camera, JPEG decoded "
                + "\(summary?["jpegDecoding"] ?? "neither way")")
    }

    /// `gphoto2 --capture-movie --stdout | ffmpeg` for `seconds`, fitted and padded to the size as the tool does.
    static func recipe(output: String, seconds: Int) throws -> WebcamRun {
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
            throw Failure(
                description: "the gphoto2 | ffmpeg recipe wrote \(frames) frames (status \(recipe.status), "
                    + "\(recipe.wallSeconds) s); output: \(tail(recipe.standardOutput)); errors: "
                    + "\(tail(recipe.standardError)); gphoto2: \(tail(gphoto2))")
        }
        return WebcamRun(
            frames: frames, wallSeconds: recipe.wallSeconds, cpuPerFrame: recipe.cpuSeconds / Double(frames),
            detail: "")
    }
}
