import BenchmarkSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderSimulator
import ViewfinderTestSupport

/// The Sony rows: live view from object 0xFFFFC002 through a connected camera on the simulated α7 IV, and an ISO set
/// across ten notches on the simulated α7 III, which moves ISO only by notches, each against gphoto2's Sony code
/// paths on the same simulated camera.
enum SonyBenchmark {
    /// How many sets of each client, alternating between the two values.
    static let stepSets = 10
    /// Ten notches apart on the α7 III's list of third stops.
    static let stepValues: (ISOValue, ISOValue) = (.iso100, .iso1000)

    /// Measures, prints the figures and the verdicts, and returns whether every target was met.
    static func run(executable: String, work: String) async throws -> Bool {
        let liveView: (fps: Double, cpuPerFrame: Double, frames: Int)
        let movie: (movie: (wall: Double, cpu: Double), fps: Double, cpuPerFrame: Double)
        do {
            let (server, port) = try Benchmark.startSimulator(executable, "sony")
            defer { Benchmark.stopSimulator(server) }
            let camera = PTPCamera(host: "127.0.0.1", transport: .init(port: port))
            try await camera.connect()
            liveView = try await Benchmark.measureLiveView(of: camera, named: "Sony", work: work)
            try await camera.disconnect()
            movie = try Benchmark.measureMovie(gphoto2(port))
        }
        let (server, port) = try Benchmark.startSimulator(executable, "sony-stepping")
        defer { Benchmark.stopSimulator(server) }
        let camera = PTPCamera(host: "127.0.0.1", transport: .init(port: port))
        try await camera.connect()
        let ours = try await measureSteppedSets(camera)
        try await camera.disconnect()
        let theirs = try measureGphoto2SteppedSets(port)

        say("Sony live view (GetObject of 0xFFFFC002, 640x424 JPEG frames appended to a file) through PTPCamera's")
        say("live view publisher, paced by a subscriber that is always ready, on the simulated α7 IV")
        Benchmark.sayLiveView(liveView, against: movie)
        say("Sony ISO set across ten notches (ISO 100 ⇄ ISO 1000) on the simulated α7 III, which moves ISO only by")
        let delay = CameraSimulator.Configuration().sonyNotchDelay.inSeconds * 1000
        say("notches with ControlDevice and takes \(format(delay, 0)) ms to show each move, until the camera shows it")
        say(
            "  Viewfinder setValue:             median \(format(ours.median * 1000, 1)) ms, "
                + "slowest \(format(ours.slowest * 1000, 1)) ms (\(stepSets) sets)")
        say(
            "  gphoto2 --set-config iso:        median \(format(theirs.set * 1000, 0)) ms for the whole run, "
                + "\(format(theirs.stepped * 1000, 0)) ms more than --get-config iso (\(format(theirs.get * 1000, 0)) ms)\n"
        )

        say("Sony targets (against gphoto2's per-frame cost and its set beyond its fixed cost)")
        var met = true
        met =
            verdict(
                "live view frames/s ≥ gphoto2's", liveView.fps >= movie.fps, "\(format(liveView.fps / movie.fps, 2))×")
            && met
        met = Benchmark.halfCPUVerdict(liveView, against: movie) && met
        met =
            verdict(
                "stepped ISO set faster than gphoto2's", ours.median < theirs.stepped,
                "\(format(ours.median * 1000, 1)) ms against \(format(theirs.stepped * 1000, 0)) ms") && met
        return met
    }

    /// gphoto2 against the simulated Sony at `port`, as a PTP/IP camera it knows from its DeviceInfo.
    static func gphoto2(_ port: UInt16) -> [String] {
        ["gphoto2", "--port", "ptpip:127.0.0.1:\(port):\(port)", "--camera", "PTP/IP Camera"]
    }

    /// The median and slowest time of setting ISO ten notches away and back, until the camera shows it.
    static func measureSteppedSets(_ camera: PTPCamera) async throws -> (median: Double, slowest: Double) {
        let iso = camera.property(for: .iso)
        try await iso.setValue(stepValues.0)
        var seconds: [Double] = []
        for index in 0..<stepSets {
            let value = index.isMultiple(of: 2) ? stepValues.1 : stepValues.0
            let start = ContinuousClock.now
            try await iso.setValue(value)
            seconds.append(start.duration(to: .now).inSeconds)
            guard iso.commonValue == value else { throw BenchmarkError("ISO did not become \(value)") }
        }
        return (median(seconds), seconds.max() ?? 0)
    }

    /// gphoto2's stepped sets, alternating so that each moves ten notches: the median run, the median run of
    /// --get-config iso (its fixed cost), and the difference.
    static func measureGphoto2SteppedSets(_ port: UInt16) throws -> (set: Double, get: Double, stepped: Double) {
        let command = gphoto2(port)
        let values = ["100", "1000"]
        _ = try Benchmark.measure(command + ["--set-config", "iso=100"], runs: 1)
        var sets: [Double] = []
        for index in 0..<stepSets {
            sets.append(
                try Benchmark.measure(command + ["--set-config", "iso=\(values[(index + 1) % 2])"], runs: 1).wall)
        }
        let shown = try runCommand(command + ["--get-config", "iso"])
        guard shown.output.contains("Current: \(values[stepSets % 2])\n") else {
            throw BenchmarkError("gphoto2 did not leave ISO at \(values[stepSets % 2]):\n\(shown.output)")
        }
        let get = try Benchmark.measure(command + ["--get-config", "iso"]).wall
        let set = median(sets)
        return (set, get, max(set - get, 1e-6))
    }
}
