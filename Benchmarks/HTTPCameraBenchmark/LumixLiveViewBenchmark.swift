import BenchmarkSupport
import ViewfinderLumix
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The Lumix row: live view of the simulated DC-TZ90 (one JPEG per UDP datagram, 320x240 frames ten times a second)
/// through LumixCamera's live view publisher, with the driver's poll of the camera's state each second, against
/// gphoto2's Lumix driver on the same simulator, beside a bare floor.
///
/// gphoto2's driver reaches a camera only on ports 80 and 60606 and takes one frame per call of its preview, sending
/// `getstate` before each; `--capture-movie` calls it in a loop in one process and appends each frame to a file, the
/// like-for-like peer. As root, the simulator listens on 127.0.0.2, whose ports 80 and 60606 are its own; otherwise
/// on free ports of 127.0.0.1, where gphoto2 cannot reach it and the row has no peer.
enum LumixLiveViewBenchmark {
    /// How long Viewfinder's live view is measured, after its first frame.
    static let seconds = 20.0
    /// How long the floor is measured, after its first frame.
    static let floorSeconds = 10.0
    /// How many frames gphoto2 takes in its long run; its CPU per frame is the difference from a one-frame run.
    static let peerFrames = 101
    /// How many times each gphoto2 run is repeated; the medians count.
    static let peerRuns = 3
    /// Where the simulator listens when it may take a Lumix's ports.
    static let ownAddress = "127.0.0.2"

    /// Measures, prints the figures and the verdicts, and returns whether every target was met.
    static func run(executable: String) async throws -> Bool {
        let asRoot = geteuid() == 0
        let host = asRoot ? ownAddress : "127.0.0.1"
        let server = try ChildProcess(executable, ["serve-lumix"] + (asRoot ? [host] : []))
        defer {
            server.closeInput()
            _ = server.wait(timeout: .seconds(30))
        }
        guard let line = server.readLine(), line.hasPrefix("port "),
            case let ports = line.dropFirst(5).split(separator: " ").compactMap({ UInt16($0) }), ports.count == 2
        else {
            throw BenchmarkFailure("the simulated Lumix did not start")
        }
        var configuration = LumixCamera.Configuration()
        configuration.port = ports[0]
        configuration.contentPort = ports[1]
        let viewfinder = try await LiveViewMeasurement.measure(
            LumixCamera(host: host, configuration: configuration), seconds: seconds)
        let floor = try await IOThread.run(name: "lumix-floor") {
            try LumixFloorClient(host: host, port: ports[0]).measure(seconds: floorSeconds)
        }
        let peer = asRoot ? try measureGPhoto2(host: host) : nil

        say("Lumix live view (a JPEG per UDP datagram, 320x240 frames ten times a second) on the simulated DC-TZ90")
        say(
            "  Viewfinder liveViewPublisher:       \(format(viewfinder.fps, 1)) frames/s, "
                + "\(format(viewfinder.cpuPerFrame * 1e6, 0)) µs CPU/frame (\(viewfinder.frames) frames in "
                + "\(format(seconds, 0)) s after its first, this process's CPU alone, its poll included)")
        if let peer {
            say(
                "  gphoto2 --capture-movie=\(peerFrames):        \(format(peer.fps, 1)) frames/s, "
                    + "\(format(peer.cpuPerFrame * 1e6, 0)) µs CPU/frame (less a one-frame run, the medians of "
                    + "\(peerRuns) runs; a getstate before each frame, each appended to a file)")
        } else {
            say("  gphoto2 --capture-movie:            not measured: it needs ports 80 and 60606, so root")
        }
        say(
            "  floor (one blocking read a datagram, the JPEG found in it): \(format(floor.fps, 1)) frames/s, "
                + "\(format(floor.cpuPerFrame * 1e6, 0)) µs CPU/frame; Viewfinder "
                + "\(format(viewfinder.cpuPerFrame / floor.cpuPerFrame, 2))× the floor"
                + (peer.map { ", gphoto2 \(format($0.cpuPerFrame / floor.cpuPerFrame, 2))× the floor" } ?? "") + "\n")
        guard let peer else { return true }

        say("Lumix targets (against gphoto2's per-frame cost; both are held to the camera's 10 frames/s)")
        var met = true
        met =
            LiveViewMeasurement.verdict(
                "live view frames/s ≥ gphoto2's (within 3%)", viewfinder.fps >= peer.fps * 0.97,
                "\(format(viewfinder.fps / peer.fps, 2))×") && met
        met =
            LiveViewMeasurement.verdict(
                "CPU per live view frame ≤ ½ of gphoto2's", viewfinder.cpuPerFrame <= peer.cpuPerFrame / 2,
                "\(format(viewfinder.cpuPerFrame / peer.cpuPerFrame, 3))× gphoto2's") && met
        return met
    }

    /// gphoto2's frames per second and CPU seconds per frame beyond a one-frame run, the medians of ``peerRuns``.
    private static func measureGPhoto2(host: String) throws -> (fps: Double, cpuPerFrame: Double) {
        let directory = try TemporaryDirectory()
        func run(frames: Int) throws -> (wall: Double, cpu: Double) {
            var walls: [Double] = []
            var cpus: [Double] = []
            for _ in 0..<peerRuns {
                // --capture-movie writes movie.mjpg where it runs, whatever --filename says: env moves to a scratch
                // directory and becomes gphoto2 (the same process, so the child's CPU is gphoto2's).
                let outcome = try ChildProcess.run(
                    "/usr/bin/env",
                    [
                        "-C", directory.path, "gphoto2", "--port", "ip:\(host)", "--camera", "Panasonic LumixGSeries",
                        "--capture-movie=\(frames)", "--force-overwrite",
                    ], mergingErrors: true)
                guard outcome.status == 0, !outcome.standardOutput.contains("*** Error") else {
                    throw BenchmarkFailure("gphoto2 --capture-movie=\(frames) failed:\n\(outcome)")
                }
                walls.append(outcome.wallSeconds)
                cpus.append(outcome.cpuSeconds)
            }
            return (median(walls), median(cpus))
        }
        let long = try run(frames: peerFrames)
        let single = try run(frames: 1)
        let extra = Double(peerFrames - 1)
        return (extra / max(long.wall - single.wall, 1e-6), max(long.cpu - single.cpu, 1e-9) / extra)
    }
}
