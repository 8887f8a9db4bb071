import BenchmarkSupport
import Dispatch
import Synchronization
import ViewfinderCore
import ViewfinderPTP
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The Canon EOS rows: EVF live view and property sets through a connected camera, the path an app takes, against
/// gphoto2's EOS code paths on the same simulated Canon camera.
enum CanonBenchmark {
    static let propertySets = 40

    /// Measures, prints the figures and the verdicts, and returns whether every target was met.
    static func run(executable: String, work: String) async throws -> Bool {
        let server = try ChildProcess(executable, ["serve", "canon"])
        defer {
            server.closeInput()
            _ = server.wait(timeout: .seconds(30))
        }
        guard let line = server.readLine(), line.hasPrefix("port "), let port = UInt16(line.split(separator: " ")[1])
        else { throw BenchmarkError("the simulated Canon camera did not start") }

        let camera = PTPCamera(host: "127.0.0.1", transport: .init(port: port))
        try await camera.connect()
        let liveView = try await Benchmark.measureLiveView(of: camera, named: "Canon", work: work)
        let sets = try await measurePropertySets(camera)
        try await camera.disconnect()

        let gphoto2 = ["gphoto2", "--port", "ptpip:127.0.0.1:\(port):\(port)", "--camera", "Canon EOS (WLAN)"]
        let frames = Benchmark.movieFrames
        let (movie, gphotoFPS, gphotoFrameCPU) = try Benchmark.measureMovie(gphoto2)
        let set = try Benchmark.measure(gphoto2 + ["--set-config", "iso=400"])
        let get = try Benchmark.measure(gphoto2 + ["--get-config", "iso"])

        say("Canon EOS live view (GetViewFinderData, 640x424 JPEG frames appended to a file, the camera polled for")
        say("events meanwhile) through PTPCamera's live view publisher, paced by a subscriber that is always ready")
        say(
            "  Viewfinder liveViewPublisher:    \(format(liveView.fps, 0)) frames/s, "
                + "\(format(liveView.cpuPerFrame * 1e6, 0)) µs CPU/frame (\(liveView.frames) frames in "
                + "\(format(Benchmark.liveViewSeconds, 0)) s)")
        say(
            "  gphoto2 --capture-movie=\(frames):    \(format(Double(frames + 1) / movie.wall, 0)) frames/s, "
                + "\(format(movie.cpu / Double(frames + 1) * 1e6, 0)) µs CPU/frame for the whole run")
        say(
            "  gphoto2 per extra frame (vs 1):  \(format(gphotoFPS, 0)) frames/s, "
                + "\(format(gphotoFrameCPU * 1e6, 0)) µs CPU/frame")
        say("Canon EOS property set (ISO through SetDevicePropValueEx until the camera's events show the new value)")
        say(
            "  Viewfinder setValue round trip:  median \(format(sets.median * 1000, 2)) ms, "
                + "slowest \(format(sets.slowest * 1000, 2)) ms (\(propertySets) sets)")
        say(
            "  gphoto2 --set-config iso=400:    \(format(set.wall * 1000, 0)) ms for the whole run, "
                + "\(format((set.wall - get.wall) * 1000, 0)) ms more than --get-config iso "
                + "(\(format(get.wall * 1000, 0)) ms)\n")

        say("Canon targets (against gphoto2's per-frame cost)")
        var met = true
        met =
            verdict(
                "EVF frames/s ≥ gphoto2's", liveView.fps >= gphotoFPS, "\(format(liveView.fps / gphotoFPS, 2))×")
            && met
        met =
            verdict(
                "CPU per EVF frame ≤ ½ of gphoto2's", liveView.cpuPerFrame <= gphotoFrameCPU / 2,
                "\(format(liveView.cpuPerFrame / gphotoFrameCPU, 3))× gphoto2's") && met
        return met
    }

    /// The median and slowest round trip of setting ISO, alternating between two values.
    static func measurePropertySets(_ camera: PTPCamera) async throws -> (median: Double, slowest: Double) {
        let iso = camera.property(for: .iso)
        var seconds: [Double] = []
        for index in 0..<propertySets {
            let value: ISOValue = index.isMultiple(of: 2) ? .iso200 : .iso800
            let start = ContinuousClock.now
            try await iso.setValue(value)
            seconds.append(start.duration(to: .now).inSeconds)
            guard iso.commonValue == value else { throw BenchmarkError("ISO did not become \(value)") }
        }
        return (median(seconds), seconds.max() ?? 0)
    }
}
