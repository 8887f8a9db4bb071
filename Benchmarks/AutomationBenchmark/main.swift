// Measures the automations against gphoto2 on the simulated Canon and Nikon over loopback PTP/IP, each client in turn
// on the same camera in the same run, the camera's own record of its shutter the judge:
// - bulb: exposures of 1, 2 and 5 s held by Viewfinder's engageShutter()/disengageShutter() and by gphoto2 (Canon
//   eosremoterelease Press/Release Full, Nikon bulb=1/bulb=0): the length asked against the length the shutter
//   stayed open;
// - timelapse: Viewfinder's Timelapse against gphoto2 --capture-image --interval: the intervals between the times the
//   shutter opened, their mean, standard deviation and largest deviation from the interval asked;
// - tethering: Viewfinder's Tethering against gphoto2 --capture-tethered, the camera's own button pressed: the time
//   from the press to the whole file on disk, median and largest, and the client's share: from the camera having
//   the picture to the file on disk.
//
// Usage: automation-benchmark [--frames N] [--interval SECONDS] [--shots N] [--json]   (build with -c release)

import BenchmarkSupport
import Foundation
import ViewfinderSimulator
import ViewfinderTestSupport

let usage = """
    usage: automation-benchmark [--frames N] [--interval SECONDS] [--shots N] [--json]

    Bulb exposure length, timelapse interval jitter and tethering latency of Viewfinder's automations against
    gphoto2 on the simulated Canon and Nikon over loopback PTP/IP, in one run of two or three minutes. Needs gphoto2.

      --frames N          frames of each timelapse (default 10)
      --interval SECONDS  the timelapse interval, whole seconds (default 1)
      --shots N           pictures taken with the camera's button for each tethering (default 5)
      --json              print the figures as JSON on standard output, progress on standard error
    """

/// The bulb exposures' lengths, in seconds.
let bulbLengths = [1, 2, 5]

/// What the command line asks for.
struct Options {
    var frames = 10
    var interval = 1
    var shots = 5
    var json = false

    init(_ arguments: [String]) throws {
        var remaining = arguments[...]
        func count(_ name: String, in range: ClosedRange<Int>) throws -> Int {
            guard let text = remaining.popFirst(), let value = Int(text), range.contains(value) else {
                throw BenchmarkFailure("\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--frames": frames = try count(argument, in: 3...1000)
            case "--interval": interval = try count(argument, in: 1...60)
            case "--shots": shots = try count(argument, in: 1...100)
            case "--json": json = true
            case "--help", "-h":
                print(usage)
                exit(0)
            default: throw BenchmarkFailure("unknown argument \(argument)\n\(usage)")
            }
        }
    }
}

/// A figure of Viewfinder's next to gphoto2's on the same camera, and their ratio.
struct Ratio: Codable {
    var camera: String
    var figure: String
    var viewfinder: Double
    var gphoto2: Double
    /// Viewfinder's figure over gphoto2's; `nil` when gphoto2's is zero.
    var ratio: Double?

    init(camera: String, figure: String, viewfinder: Double, gphoto2: Double) {
        self.camera = camera
        self.figure = figure
        self.viewfinder = viewfinder
        self.gphoto2 = gphoto2
        ratio = gphoto2 > 0 ? viewfinder / gphoto2 : nil
    }
}

/// Everything the run measured.
struct Report: Codable {
    var bulb: [BulbBenchmark.Figures] = []
    var timelapse: [TimelapseBenchmark.Figures] = []
    var tethering: [TetherBenchmark.Figures] = []
    var ratios: [Ratio] = []
}

/// Whether `name` is an executable file in a directory of `PATH`.
func isOnPath(_ name: String) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { access("\($0)/\(name)", X_OK) == 0 }
}

/// Measures everything on the simulated Canon and Nikon, saying what it does with `progress`.
func measure(_ options: Options, progress: (String) -> Void) async throws -> Report {
    let scratch = try TemporaryDirectory()
    var report = Report()
    for identity in [CameraSimulator.Identity.canon, .nikon] {
        let camera = try BenchCamera(identity, home: scratch.path)
        do {
            progress("\(camera.name): timelapses of \(options.frames) frames every \(options.interval) s")
            let timelapse = [
                try await TimelapseBenchmark.viewfinder(
                    on: camera, frames: options.frames, interval: options.interval),
                try await TimelapseBenchmark.gphoto2(on: camera, frames: options.frames, interval: options.interval),
            ]
            progress("\(camera.name): tethering, \(options.shots) pictures taken with the camera's button")
            let tethering = [
                try await TetherBenchmark.viewfinder(on: camera, shots: options.shots, scratch: scratch.path),
                try await TetherBenchmark.gphoto2(on: camera, shots: options.shots, scratch: scratch.path),
            ]
            // Bulb last: it leaves the shutter speed at bulb, at which the Nikon's other pictures would last a second.
            progress("\(camera.name): bulb exposures of \(bulbLengths.map { "\($0) s" }.joined(separator: ", "))")
            let bulb = [
                try await BulbBenchmark.viewfinder(on: camera, lengths: bulbLengths),
                try await BulbBenchmark.gphoto2(on: camera, lengths: bulbLengths),
            ]
            report.bulb += bulb
            report.timelapse += timelapse
            report.tethering += tethering
            report.ratios += [
                Ratio(
                    camera: camera.name, figure: "bulb mean error", viewfinder: bulb[0].meanErrorMilliseconds,
                    gphoto2: bulb[1].meanErrorMilliseconds),
                Ratio(
                    camera: camera.name, figure: "bulb max error", viewfinder: bulb[0].maxErrorMilliseconds,
                    gphoto2: bulb[1].maxErrorMilliseconds),
                Ratio(
                    camera: camera.name, figure: "timelapse interval sd",
                    viewfinder: timelapse[0].standardDeviationMilliseconds,
                    gphoto2: timelapse[1].standardDeviationMilliseconds),
                Ratio(
                    camera: camera.name, figure: "timelapse max deviation",
                    viewfinder: timelapse[0].maxDeviationMilliseconds, gphoto2: timelapse[1].maxDeviationMilliseconds),
                Ratio(
                    camera: camera.name, figure: "tether median latency", viewfinder: tethering[0].medianMilliseconds,
                    gphoto2: tethering[1].medianMilliseconds),
                Ratio(
                    camera: camera.name, figure: "tether max latency", viewfinder: tethering[0].maxMilliseconds,
                    gphoto2: tethering[1].maxMilliseconds),
                Ratio(
                    camera: camera.name, figure: "tether client's median",
                    viewfinder: tethering[0].clientMedianMilliseconds, gphoto2: tethering[1].clientMedianMilliseconds),
            ]
        } catch {
            await camera.stop()
            throw error
        }
        await camera.stop()
    }
    return report
}

/// Prints the report as tables.
func printTables(_ report: Report, _ options: Options) {
    say("\nbulb: the length asked against the length the simulated shutter stayed open (error: seen - asked)")
    say(
        "CAMERA  CLIENT      " + bulbLengths.map { "\($0) s SEEN".leftPadded(11) }.joined()
            + "  MEAN |ERR|   MAX |ERR|")
    for figures in report.bulb {
        say(
            figures.camera.rightPadded(8) + figures.client.rightPadded(12)
                + figures.seenSeconds.map { "\(format($0, 3)) s".leftPadded(11) }.joined()
                + "\(format(figures.meanErrorMilliseconds, 1)) ms".leftPadded(13)
                + "\(format(figures.maxErrorMilliseconds, 1)) ms".leftPadded(12))
    }
    say(
        "\ntimelapse: \(options.frames) frames every \(options.interval) s; intervals between the times the simulated"
            + " shutter opened")
    say("CAMERA  CLIENT      FRAMES       MEAN         SD   MAX DEVIATION")
    for figures in report.timelapse {
        say(
            figures.camera.rightPadded(8) + figures.client.rightPadded(12)
                + "\(figures.framesTaken)/\(figures.frames)".leftPadded(6)
                + "\(format(figures.meanMilliseconds, 1)) ms".leftPadded(11)
                + "\(format(figures.standardDeviationMilliseconds, 1)) ms".leftPadded(11)
                + "\(format(figures.maxDeviationMilliseconds, 1)) ms".leftPadded(16))
    }
    say(
        "\ntethering: the simulated camera's own button pressed to the whole file on disk (its rename, seen by inotify),"
            + " \(options.shots) shots")
    say("CAMERA  CLIENT          MEDIAN        MAX   CLIENT'S MEDIAN  CLIENT'S MAX")
    for figures in report.tethering {
        say(
            figures.camera.rightPadded(8) + figures.client.rightPadded(12)
                + "\(format(figures.medianMilliseconds, 1)) ms".leftPadded(10)
                + "\(format(figures.maxMilliseconds, 1)) ms".leftPadded(11)
                + "\(format(figures.clientMedianMilliseconds, 1)) ms".leftPadded(18)
                + "\(format(figures.clientMaxMilliseconds, 1)) ms".leftPadded(14))
    }
    say("(client's: from the simulated camera having the picture to the whole file on disk)")
    say("\nViewfinder / gphoto2 (below 1: Viewfinder closer to what was asked, or faster)")
    for ratio in report.ratios {
        say(
            ratio.camera.rightPadded(8) + ratio.figure.rightPadded(26)
                + "\(format(ratio.viewfinder, 1)) / \(format(ratio.gphoto2, 1)) ms".leftPadded(22)
                + (ratio.ratio.map { format($0, 2) } ?? "-").leftPadded(8))
    }
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    guard isOnPath("gphoto2") else {
        throw BenchmarkFailure("gphoto2 is missing: install it (make test-deps, or apt-get install gphoto2)")
    }
    let report = try await measure(options) { line in
        if options.json {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        } else {
            say(line)
        }
    }
    if options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        say(String(decoding: try encoder.encode(report), as: UTF8.self))
    } else {
        printTables(report, options)
    }
} catch {
    FileHandle.standardError.write(Data("automation-benchmark: \(error)\n".utf8))
    exit(1)
}
