import BenchmarkSupport
import ViewfinderSonyRemote
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The Sony Camera Remote API row: live view of the simulated α6000 (an HTTP stream of 320x240 JPEG packets ten
/// times a second) through SonyRemoteCamera's live view publisher, against libsonyapi's startLiveview read as pysony
/// reads the stream, on the same simulator.
enum SonyRemoteLiveViewBenchmark {
    /// How long Viewfinder's live view is measured, after its first frame.
    static let seconds = 5.0
    /// How many frames libsonyapi reads in each run.
    static let peerFrames = 51
    /// How many times each libsonyapi run is repeated; the medians count.
    static let peerRuns = 3

    /// The repository, where the test venv and libsonyapi's live view script are.
    static let repository = String(
        #filePath.dropLast("Benchmarks/HTTPCameraBenchmark/SonyRemoteLiveViewBenchmark.swift".count))

    /// Measures, prints the figures and the verdicts, and returns whether every target was met.
    static func run(executable: String) async throws -> Bool {
        let python = repository + ".build-peers/bin/python3"
        guard access(python, X_OK) == 0 else {
            throw BenchmarkFailure("\(python) is missing: make test-deps installs libsonyapi")
        }
        let server = try ChildProcess(executable, ["serve-sony"])
        defer {
            server.closeInput()
            _ = server.wait(timeout: .seconds(30))
        }
        guard let line = server.readLine(), line.hasPrefix("port "), let port = UInt16(line.dropFirst(5)) else {
            throw BenchmarkFailure("the simulated Sony did not start")
        }
        var configuration = SonyRemoteCamera.Configuration()
        configuration.port = port
        let viewfinder = try await LiveViewMeasurement.measure(
            SonyRemoteCamera(host: "127.0.0.1", configuration: configuration), seconds: seconds)
        let script = repository + "Tests/ViewfinderSonyRemoteTests/Peers/libsonyapi-liveview.py"
        let peer = try LiveViewMeasurement.measurePeer(
            [python, script, String(port), String(peerFrames)], runs: peerRuns)

        say(
            "Sony Camera Remote API live view (HTTP stream, 320x240 JPEG frames ten times a second) on the simulated α6000"
        )
        say(
            "  Viewfinder liveViewPublisher:       \(format(viewfinder.fps, 1)) frames/s, "
                + "\(format(viewfinder.cpuPerFrame * 1e6, 0)) µs CPU/frame (\(viewfinder.frames) frames in "
                + "\(format(seconds, 0)) s)")
        say(
            "  libsonyapi + requests stream:       \(format(peer.fps, 1)) frames/s, "
                + "\(format(peer.cpuPerFrame * 1e6, 0)) µs CPU/frame (after its first frame, the median of "
                + "\(peerRuns) runs of \(peerFrames) frames)\n")

        say("Sony targets (against libsonyapi's per-frame cost; both are held to the camera's 10 frames/s)")
        var met = true
        met =
            LiveViewMeasurement.verdict(
                "live view frames/s ≥ libsonyapi's (within 3%)", viewfinder.fps >= peer.fps * 0.97,
                "\(format(viewfinder.fps / peer.fps, 2))×") && met
        met =
            LiveViewMeasurement.verdict(
                "CPU per live view frame ≤ ½ of libsonyapi's", viewfinder.cpuPerFrame <= peer.cpuPerFrame / 2,
                "\(format(viewfinder.cpuPerFrame / peer.cpuPerFrame, 3))× libsonyapi's") && met
        return met
    }
}
