import BenchmarkSupport
import ViewfinderTestSupport

extension Benchmark {
    /// Starts `ptp-benchmark serve IDENTITY` and reads the port it listens on.
    static func startSimulator(_ executable: String, _ identity: String) throws -> (ChildProcess, UInt16) {
        let server = try ChildProcess(executable, ["serve", identity])
        guard let line = server.readLine(), line.hasPrefix("port "), let port = UInt16(line.split(separator: " ")[1])
        else {
            stopSimulator(server)
            throw BenchmarkError("the simulated \(identity) camera did not start")
        }
        return (server, port)
    }

    /// Closes the simulator's standard input, which ends it, and waits for it.
    static func stopSimulator(_ server: ChildProcess) {
        server.closeInput()
        _ = server.wait(timeout: .seconds(30))
    }

    /// Prints a live view row's figures: the camera's live view publisher, then gphoto2 --capture-movie for its
    /// whole run and per frame beyond its fixed cost.
    static func sayLiveView(
        _ liveView: (fps: Double, cpuPerFrame: Double, frames: Int),
        against movie: (movie: (wall: Double, cpu: Double), fps: Double, cpuPerFrame: Double)
    ) {
        let frames = movieFrames
        say(
            "  Viewfinder liveViewPublisher:    \(format(liveView.fps, 0)) frames/s, "
                + "\(format(liveView.cpuPerFrame * 1e6, 0)) µs CPU/frame (\(liveView.frames) frames in "
                + "\(format(liveViewSeconds, 0)) s)")
        say(
            "  gphoto2 --capture-movie=\(frames):    \(format(Double(frames + 1) / movie.movie.wall, 0)) frames/s, "
                + "\(format(movie.movie.cpu / Double(frames + 1) * 1e6, 0)) µs CPU/frame for the whole run")
        say(
            "  gphoto2 per extra frame (vs 1):  \(format(movie.fps, 0)) frames/s, "
                + "\(format(movie.cpuPerFrame * 1e6, 0)) µs CPU/frame")
    }

    /// Prints and returns the verdict on the target that a live view frame costs at most half the CPU of one of
    /// gphoto2's.
    static func halfCPUVerdict(
        _ liveView: (fps: Double, cpuPerFrame: Double, frames: Int),
        against movie: (movie: (wall: Double, cpu: Double), fps: Double, cpuPerFrame: Double)
    ) -> Bool {
        verdict(
            "CPU per live view frame ≤ ½ of gphoto2's", liveView.cpuPerFrame <= movie.cpuPerFrame / 2,
            "\(format(liveView.cpuPerFrame / movie.cpuPerFrame, 3))× gphoto2's")
    }
}
