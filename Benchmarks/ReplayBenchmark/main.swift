// Measures connecting to real cameras, played back from their gphoto2 debug logs (Tests/ViewfinderPTPTests/Traces):
// the time from connect() to a camera ready to use (its dialect open, its properties read) and the number of requests
// that took, against `gphoto2 --summary` on the same replay in the same run.
//
// Usage: replay-benchmark [TRACE...]   (build with -c release; needs gphoto2; every trace by default)

import BenchmarkSupport
import Foundation
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSimulator
import ViewfinderTestSupport

/// How many times each client connects to each trace; the medians are printed.
let runs = 5

/// Where the traces are, next to this benchmark in the repository.
let traces =
    String(#filePath.dropLast("Benchmarks/ReplayBenchmark/main.swift".count)) + "Tests/ViewfinderPTPTests/Traces/"

struct Figures {
    var milliseconds: Double
    var requests: Int
    /// Why the client failed to connect, when it did.
    var failure: String?
}

/// Connects Viewfinder's client to a fresh replay of `recording`: the time until the camera is ready, and the requests.
func viewfinder(_ recording: RecordedCamera) async throws -> Figures {
    let simulator = try CameraSimulator(replaying: recording, configuration: .init(port: 0))
    try simulator.start()
    defer { simulator.stop() }
    let camera = PTPCamera(host: "127.0.0.1", transport: .init(port: simulator.port, clientName: "replay-benchmark"))
    let start = ContinuousClock.now
    try await camera.connect()
    let elapsed = start.duration(to: .now)
    let requests = simulator.replayCounts.requests
    try await camera.disconnect()
    return Figures(milliseconds: elapsed.inSeconds * 1000, requests: requests)
}

/// Runs `gphoto2 --summary` against a fresh replay of `recording`: its whole run's time, and the requests.
func gphoto2(_ recording: RecordedCamera, home: String) async throws -> Figures {
    let simulator = try CameraSimulator(replaying: recording, configuration: .init(port: 0))
    try simulator.start()
    defer { simulator.stop() }
    let port = simulator.port
    let result = try await ChildProcess.run(
        ["gphoto2", "--port", "ptpip:127.0.0.1:\(port):\(port)", "--camera", "PTP/IP Camera", "--summary"],
        environment: ["HOME": home])
    let failure =
        result.status == 0
        ? nil
        : result.standardOutput.split(separator: "\n").first { $0.contains("error occurred") }.map(String.init)
            ?? "exit status \(result.status)"
    return Figures(
        milliseconds: result.wallSeconds * 1000, requests: simulator.replayCounts.requests, failure: failure)
}

let names =
    CommandLine.arguments.count > 1
    ? Array(CommandLine.arguments.dropFirst())
    : try FileManager.default.contentsOfDirectory(atPath: traces).filter { $0.hasSuffix(".log") }.sorted()
let scratch = try TemporaryDirectory()
let home = scratch.path
say("connecting to real cameras played back from their logs: Viewfinder's connect() until ready, against")
say("gphoto2 --summary (a whole process: start, connect, read every property and storage) on the same replay;")
say("medians of \(runs) runs each, over loopback\n")
say("TRACE                                        VIEWFINDER  REQUESTS   GPHOTO2  REQUESTS")
for name in names {
    let recording = try RecordedCamera(gphotoDebugLogAtPath: traces + name)
    var ours: [Figures] = []
    var theirs: [Figures] = []
    for _ in 0..<runs {
        ours.append(try await viewfinder(recording))
        theirs.append(try await gphoto2(recording, home: home))
    }
    let trace = name.replacingOccurrences(of: "-libgphoto2-cameras.log", with: "")
    let failure = theirs.compactMap(\.failure).first
    say(
        trace.padding(toLength: 44, withPad: " ", startingAt: 0)
            + " \(format(median(ours.map(\.milliseconds)), 1)) ms".leftPadded(11)
            + "\(ours.map(\.requests).max() ?? 0)".leftPadded(10)
            + " \(format(median(theirs.map(\.milliseconds)), 1)) ms".leftPadded(11)
            + "\(theirs.map(\.requests).max() ?? 0)".leftPadded(10)
            + (failure.map { "  (gphoto2 failed: \($0.trimmingCharacters(in: .whitespaces)))" } ?? ""))
}
