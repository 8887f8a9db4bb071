import BenchmarkSupport
import Foundation
import Synchronization
import ViewfinderCore
import ViewfinderOlympus
import ViewfinderReactive
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The Olympus row: live view of the simulated E-M10 Mark II (RTP over UDP, 320x240 frames ten times a second)
/// through OlympusCamera's live view publisher, against olympuswifi's LiveViewReceiver on the same simulator.
enum OlympusLiveViewBenchmark {
    /// How long Viewfinder's live view is measured, after its first frame: long enough that a busy machine's noise
    /// and the once-a-second property poll average out.
    static let seconds = 20.0
    /// How many frames olympuswifi receives in each run.
    static let peerFrames = 51
    /// How many times each olympuswifi run is repeated; the medians count.
    static let peerRuns = 3

    /// The repository, where the test venv and olympuswifi's live view script are.
    static let repository = String(
        #filePath.dropLast("Benchmarks/HTTPCameraBenchmark/OlympusLiveViewBenchmark.swift".count))

    /// Measures, prints the figures and the verdicts, and returns whether every target was met.
    static func run(executable: String) async throws -> Bool {
        let python = repository + ".build-peers/bin/python3"
        guard access(python, X_OK) == 0 else {
            throw BenchmarkFailure("\(python) is missing: make test-deps installs olympuswifi")
        }
        let server = try ChildProcess(executable, ["serve"])
        defer {
            server.closeInput()
            _ = server.wait(timeout: .seconds(30))
        }
        guard let line = server.readLine(), line.hasPrefix("port "), let port = UInt16(line.dropFirst(5)) else {
            throw BenchmarkFailure("the simulated Olympus did not start")
        }
        var configuration = OlympusCamera.Configuration()
        configuration.port = port
        let viewfinder = try await measureViewfinder(
            OlympusCamera(host: "127.0.0.1", configuration: configuration), seconds: seconds)
        let script = repository + "Tests/ViewfinderOlympusTests/Peers/olympuswifi-liveview.py"
        let peer = try measurePeer([python, script, String(port), String(peerFrames)])

        say("Olympus live view (RTP over UDP, 320x240 JPEG frames ten times a second) on the simulated E-M10 Mark II")
        say(
            "  Viewfinder liveViewPublisher:       \(format(viewfinder.fps, 1)) frames/s, "
                + "\(format(viewfinder.cpuPerFrame * 1e6, 0)) µs CPU/frame (\(viewfinder.frames) frames in "
                + "\(format(seconds, 0)) s after its first, this process's CPU alone, its property poll included)")
        say(
            "  olympuswifi LiveViewReceiver:       \(format(peer.fps, 1)) frames/s, "
                + "\(format(peer.cpuPerFrame * 1e6, 0)) µs CPU/frame (after its first frame, the median of "
                + "\(peerRuns) runs of \(peerFrames) frames)\n")

        say("Olympus targets (against olympuswifi's per-frame cost; both are held to the camera's 10 frames/s)")
        var met = true
        met =
            verdict(
                "live view frames/s ≥ olympuswifi's (within 3%)", viewfinder.fps >= peer.fps * 0.97,
                "\(format(viewfinder.fps / peer.fps, 2))×") && met
        met =
            verdict(
                "CPU per live view frame ≤ ½ of olympuswifi's", viewfinder.cpuPerFrame <= peer.cpuPerFrame / 2,
                "\(format(viewfinder.cpuPerFrame / peer.cpuPerFrame, 3))× olympuswifi's") && met
        return met
    }

    /// Frames per second and CPU per frame of a camera's live view publisher for `seconds` after its first frame,
    /// with a subscriber that is always ready and counts each JPEG: this process's CPU alone, the driver's property
    /// poll included.
    static func measureViewfinder(
        _ camera: some Camera, seconds: Double
    ) async throws -> (fps: Double, cpuPerFrame: Double, frames: Int) {
        try await camera.connect()
        let frames = Atomic<Int>(0)
        let bytes = Atomic<Int>(0)
        let failure = Locked<String?>(nil)
        let cancellable = camera.liveViewPublisher(options: [.skipImageDecoding: true])
            .sinkWithReadyHandler { completion in
                if case .failure(let error) = completion { failure.withLock { $0 = "\(error)" } }
            } receiveValue: { frame, readyForNextFrame in
                bytes.add(frame.jpegData.count, ordering: .relaxed)
                frames.add(1, ordering: .relaxed)
                readyForNextFrame()
            }
        let deadline = ContinuousClock.now + .seconds(10)
        while frames.load(ordering: .relaxed) == 0 {
            if let message = failure.withLock({ $0 }) { throw BenchmarkFailure("live view failed: \(message)") }
            guard ContinuousClock.now < deadline else { throw BenchmarkFailure("live view gave no frame") }
            try await Task.sleep(for: .milliseconds(1))
        }
        let before = frames.load(ordering: .relaxed)
        let cpuBefore = processCPUSeconds()
        let start = ContinuousClock.now
        try await Task.sleep(for: .seconds(seconds))
        let count = frames.load(ordering: .relaxed) - before
        let elapsed = start.duration(to: .now)
        let cpu = processCPUSeconds() - cpuBefore
        cancellable.cancel()
        try await camera.disconnect()
        if let message = failure.withLock({ $0 }) { throw BenchmarkFailure("live view failed: \(message)") }
        guard count > 0, bytes.load(ordering: .relaxed) > 0 else { throw BenchmarkFailure("live view stalled") }
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (Double(count) / wall, cpu / Double(count), count)
    }

    /// The median frames per second and CPU seconds per frame of olympuswifi's runs, from each run's first frame to
    /// its last, as the script measures them.
    static func measurePeer(_ command: [String]) throws -> (fps: Double, cpuPerFrame: Double) {
        struct Report: Decodable {
            var frames: Int
            var jpeg: Bool
            var secondsAfterFirst: Double
            var cpuSecondsAfterFirst: Double
        }
        var rates: [Double] = []
        var cpus: [Double] = []
        for _ in 0..<peerRuns {
            let outcome = try ChildProcess.run(command[0], Array(command.dropFirst()))
            guard outcome.status == 0,
                let line = outcome.standardOutput.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
                let report = try? JSONDecoder().decode(Report.self, from: Data(line.utf8)), report.jpeg,
                report.frames > 1, report.secondsAfterFirst > 0
            else {
                throw BenchmarkFailure("\(command.joined(separator: " ")) failed:\n\(outcome)")
            }
            rates.append(Double(report.frames - 1) / report.secondsAfterFirst)
            cpus.append(report.cpuSecondsAfterFirst / Double(report.frames - 1))
        }
        return (median(rates), median(cpus))
    }

    /// Prints a target's verdict.
    static func verdict(_ name: String, _ met: Bool, _ detail: String) -> Bool {
        say("  \(met ? "met    " : "NOT MET") \(name): \(detail)")
        return met
    }
}
