import BenchmarkSupport
import ViewfinderOlympus
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
    /// How long the floor is measured, after its first frame.
    static let floorSeconds = 10.0

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
        let viewfinder = try await LiveViewMeasurement.measure(
            OlympusCamera(host: "127.0.0.1", configuration: configuration), seconds: seconds)
        let script = repository + "Tests/ViewfinderOlympusTests/Peers/olympuswifi-liveview.py"
        let peer = try LiveViewMeasurement.measurePeer(
            [python, script, String(port), String(peerFrames)], runs: peerRuns)
        let floor = try await IOThread.run(name: "olympus-floor") {
            try OlympusFloorClient(host: "127.0.0.1", port: port).measure(seconds: floorSeconds)
        }

        say("Olympus live view (RTP over UDP, 320x240 JPEG frames ten times a second) on the simulated E-M10 Mark II")
        say(
            "  Viewfinder liveViewPublisher:       \(format(viewfinder.fps, 1)) frames/s, "
                + "\(format(viewfinder.cpuPerFrame * 1e6, 0)) µs CPU/frame (\(viewfinder.frames) frames in "
                + "\(format(seconds, 0)) s after its first, this process's CPU alone, its property poll included)")
        say(
            "  olympuswifi LiveViewReceiver:       \(format(peer.fps, 1)) frames/s, "
                + "\(format(peer.cpuPerFrame * 1e6, 0)) µs CPU/frame (after its first frame, the median of "
                + "\(peerRuns) runs of \(peerFrames) frames)")
        say(
            "  floor (one blocking read a packet, payloads copied into the frame): \(format(floor.fps, 1)) frames/s, "
                + "\(format(floor.cpuPerFrame * 1e6, 0)) µs CPU/frame; Viewfinder "
                + "\(format(viewfinder.cpuPerFrame / floor.cpuPerFrame, 2))× the floor, olympuswifi "
                + "\(format(peer.cpuPerFrame / floor.cpuPerFrame, 2))× the floor\n")

        say("Olympus targets (against olympuswifi's per-frame cost; both are held to the camera's 10 frames/s)")
        var met = true
        met =
            LiveViewMeasurement.verdict(
                "live view frames/s ≥ olympuswifi's (within 3%)", viewfinder.fps >= peer.fps * 0.97,
                "\(format(viewfinder.fps / peer.fps, 2))×") && met
        met =
            LiveViewMeasurement.verdict(
                "CPU per live view frame ≤ ½ of olympuswifi's", viewfinder.cpuPerFrame <= peer.cpuPerFrame / 2,
                "\(format(viewfinder.cpuPerFrame / peer.cpuPerFrame, 3))× olympuswifi's") && met
        if floor.cpuPerFrame > peer.cpuPerFrame / 2 {
            say(
                "  (½ of olympuswifi's, \(format(peer.cpuPerFrame / 2 * 1e6, 0)) µs, is below the floor's "
                    + "\(format(floor.cpuPerFrame * 1e6, 0)) µs: no client that receives each frame can meet it)")
        }
        met =
            LiveViewMeasurement.verdict(
                "CPU per live view frame ≤ olympuswifi's", viewfinder.cpuPerFrame <= peer.cpuPerFrame,
                "\(format(viewfinder.cpuPerFrame / peer.cpuPerFrame, 3))× olympuswifi's") && met
        return met
    }
}
