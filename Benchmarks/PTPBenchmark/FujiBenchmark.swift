import BenchmarkSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

#if canImport(Glibc)
import Glibc
#endif

/// The Fujifilm row: live view from the JPEG stream of the simulated X-T4 over Fujifilm's WiFi protocol, through a
/// connected camera, against gphoto2's "Fuji X (WLAN)" --capture-movie on the same simulated camera.
enum FujiBenchmark {
    /// Measures, prints the figures and the verdicts, and returns whether every target was met.
    static func run(executable: String, work: String) async throws -> Bool {
        let (server, port) = try Benchmark.startSimulator(executable, "fuji")
        defer { Benchmark.stopSimulator(server) }
        let configuration = FujiWiFiTransport.Configuration(
            commandPort: port, eventPort: port + 1, liveViewPort: port + 2)
        let camera = PTPCamera(endpoint: FujiWiFiEndpoint(host: "127.0.0.1", configuration: configuration))
        try await camera.connect()
        let liveView = try await Benchmark.measureLiveView(of: camera, named: "Fuji", work: work)
        try await camera.disconnect()
        let floor = try measureFloor(port: port, work: work)
        // gphoto2 takes its Fujifilm WiFi transport for a camera named Fuji, with the event port after the command
        // port and the live view port after that.
        let movie = try Benchmark.measureMovie([
            "gphoto2", "--port", "ptpip:127.0.0.1:\(port):\(port + 1)", "--camera", "Fuji X (WLAN)",
        ])

        say("Fujifilm live view (the JPEG stream on the live view port, 640x424 frames appended to a file) through")
        say("PTPCamera's live view publisher, paced by a subscriber that is always ready, on the simulated X-T4")
        Benchmark.sayLiveView(liveView, against: movie)
        say(
            "  floor (a bare session, each frame read with one copy and appended): \(format(floor.fps, 0)) frames/s, "
                + "\(format(floor.cpuPerFrame * 1e6, 0)) µs CPU/frame; Viewfinder "
                + "\(format(liveView.cpuPerFrame / floor.cpuPerFrame, 2))× the floor, gphoto2 "
                + "\(format(movie.cpuPerFrame / floor.cpuPerFrame, 2))× the floor\n")

        say("Fujifilm targets (against gphoto2's per-frame cost; both are held to the camera's 30 frames/s)")
        var met = true
        met =
            verdict(
                "live view frames/s ≥ gphoto2's (within 3%)", liveView.fps >= movie.fps * 0.97,
                "\(format(liveView.fps / movie.fps, 2))×") && met
        met = Benchmark.halfCPUVerdict(liveView, against: movie) && met
        if floor.cpuPerFrame > movie.cpuPerFrame / 2 {
            say(
                "  (½ of gphoto2's, \(format(movie.cpuPerFrame / 2 * 1e6, 0)) µs, is below the floor's "
                    + "\(format(floor.cpuPerFrame * 1e6, 0)) µs: no client that keeps each frame can meet it)")
        }
        met =
            verdict(
                "CPU per live view frame ≤ gphoto2's", liveView.cpuPerFrame <= movie.cpuPerFrame,
                "\(format(liveView.cpuPerFrame / movie.cpuPerFrame, 3))× gphoto2's") && met
        return met
    }

    /// The floor's frames per second and CPU per frame, over the same time as Viewfinder's measurement.
    private static func measureFloor(port: UInt16, work: String) throws -> (fps: Double, cpuPerFrame: Double) {
        let file = open("\(work)/fuji-floor.mjpg", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(file) }
        return try FujiFloorClient(port: port).measure(seconds: Benchmark.liveViewSeconds, appendingTo: file)
    }
}
