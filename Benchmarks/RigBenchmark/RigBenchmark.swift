import BenchmarkSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderReactive
import ViewfinderRig
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The measurements of one rig size.
struct RigFigures {
    var cameras: Int
    var connectSeconds = 0.0
    var threadsPerCamera = 0.0
    var liveViewThreadsPerCamera = 0.0
    var bytesPerCamera = 0.0
    var idleCPUPerCameraSecond = 0.0
    var skews: [Double] = []
    var requestSpreads: [Double] = []
    var framesPerCameraPerSecond = 0.0
    var cpuPerFrame = 0.0
    var switchesPerFrame = 0.0
    var serverCPUPerFrame = 0.0
    var gphotoSkews: [Double] = []
    var gphotoCPUPerFrame: Double?
}

/// Drives rigs of simulated cameras and gphoto2 on the same cameras.
enum RigBenchmark {
    static let liveViewSeconds = 5.0
    static let idleSeconds = 3.0
    static let liveViewRate = 15
    static let gphotoMovieFrames = 150

    static func run(sizes: [Int], executable: String) async throws {
        let work = String(cString: mkdtemp(strdup("/tmp/rig-benchmark.XXXXXX")))
        // gphoto2 keeps settings in $HOME: a scratch one.
        setenv("HOME", work, 1)
        defer { _ = try? ChildProcess.run("rm", ["-rf", work], timeout: .seconds(60)) }
        say("CameraRig against N simulated Nikons (PTP/IP over loopback, served by a second process), with the gphoto2")
        say("recipe (one gphoto2 process per camera, started together) on the same cameras in the same run.\n")
        var all: [RigFigures] = []
        for size in sizes {
            say("N = \(size)")
            let figures = try await measure(cameras: size, executable: executable, work: work)
            all.append(figures)
            say("")
        }
        report(all)
    }

    /// Measures one rig size.
    static func measure(cameras count: Int, executable: String, work: String) async throws -> RigFigures {
        let server = try ChildProcess(executable, ["serve", String(count)])
        defer {
            server.closeInput()
            _ = server.wait(timeout: .seconds(60))
        }
        guard let line = server.readLine(timeout: .seconds(120)), line.hasPrefix("ports ") else {
            throw BenchmarkFailure("the simulated cameras did not start")
        }
        let ports = line.split(separator: " ").dropFirst().compactMap { UInt16($0) }
        guard ports.count == count else { throw BenchmarkFailure("\(ports.count) cameras started, not \(count)") }
        var figures = RigFigures(cameras: count)

        let rig = try CameraRig(
            members: ports.enumerated().map { index, port in
                var transport = PTPIPTransport.Configuration()
                transport.port = port
                transport.clientName = "rig-benchmark"
                return RigMember(name: "cam\(index)", camera: PTPCamera(host: "127.0.0.1", transport: transport))
            })
        // The cooperative pool's threads come and go with load: make them exist before counting.
        await warmUpPool()
        let threadsBefore = threadCount()
        let bytesBefore = residentBytes()
        let began = ContinuousClock.now
        let connected = await rig.connect(timeout: .seconds(60))
        figures.connectSeconds = began.duration(to: .now).inSeconds
        guard connected.allSucceeded else {
            throw BenchmarkFailure("\(connected.failures.count) cameras did not connect: \(connected.failures.first!)")
        }
        figures.threadsPerCamera = Double(threadCount() - threadsBefore) / Double(count)
        figures.bytesPerCamera = Double(residentBytes() - bytesBefore) / Double(count)
        say("  connected in \(format(figures.connectSeconds, 3)) s")

        // Shutter skew: the cameras' own records of their shutter opening.
        let rounds = count >= 64 ? 3 : 5
        for _ in 0..<rounds {
            try request(server, "mark")
            let fired = await rig.fireShutters(timeout: .seconds(120))
            guard fired.allSucceeded else { throw BenchmarkFailure("a shutter failed: \(fired.failures.first!)") }
            let (skew, releases) = try skew(server)
            guard releases == count else { throw BenchmarkFailure("\(releases) of \(count) shutters opened") }
            figures.skews.append(skew)
            figures.requestSpreads.append(fired.requestSpread.inSeconds)
        }
        say("  shutter skew (median of \(rounds)): \(format(median(figures.skews) * 1000, 2)) ms")

        // Connected and idle: what keeping the cameras costs between operations.
        try await Task.sleep(for: .seconds(1))
        let idleBefore = processCPUSeconds()
        try await Task.sleep(for: .seconds(idleSeconds))
        figures.idleCPUPerCameraSecond = (processCPUSeconds() - idleBefore) / idleSeconds / Double(count)
        say("  idle: \(format(figures.idleCPUPerCameraSecond * 1e3, 3)) ms CPU per camera per second")

        // Live view at 15 frames/s per camera, frames kept as the camera's JPEG.
        let frames = Locked(0)
        let liveThreadsBefore = threadCount()
        let watching = rig.liveView(options: [
            .skipImageDecoding: true, .maximumFramesPerSecond: .number(Double(liveViewRate)),
        ]) {
            camera, completion in
            if case .failure(let reason) = completion { say("  \(camera): live view \(reason)") }
        } receiveFrame: { _, _, ready in
            frames.withLock { $0 += 1 }
            ready()
        }
        try await Task.sleep(for: .seconds(1))
        let cpuBefore = processCPUSeconds()
        let serverBefore = server.cpuSecondsSoFar()
        let framesBefore = frames.withLock { $0 }
        let switchesBefore = contextSwitches()
        try await Task.sleep(for: .seconds(liveViewSeconds))
        let received = frames.withLock { $0 } - framesBefore
        figures.switchesPerFrame = Double(contextSwitches() - switchesBefore) / Double(max(received, 1))
        figures.cpuPerFrame = (processCPUSeconds() - cpuBefore) / Double(max(received, 1))
        figures.serverCPUPerFrame = (server.cpuSecondsSoFar() - serverBefore) / Double(max(received, 1))
        figures.liveViewThreadsPerCamera = Double(threadCount() - liveThreadsBefore) / Double(count)
        figures.framesPerCameraPerSecond = Double(received) / liveViewSeconds / Double(count)
        watching.cancel()
        say(
            "  live view: \(format(figures.framesPerCameraPerSecond, 1)) frames/s per camera, "
                + "\(format(figures.cpuPerFrame * 1e6, 0)) µs CPU per camera-frame, "
                + "\(format(figures.switchesPerFrame, 1)) context switches per camera-frame")
        await rig.disconnect(timeout: .seconds(30))
        try await Task.sleep(for: .milliseconds(500))

        // The gphoto2 recipe on the same cameras: skew, then live view CPU per frame.
        guard count <= 16 else { return figures }
        let gphoto = ports.map {
            ["gphoto2", "--port", "ptpip:127.0.0.1:\($0):\($0)", "--camera", "Nikon DSLR (WLAN)"]
        }
        for _ in 0..<3 {
            try request(server, "mark")
            let results = try runTogether(gphoto.map { $0 + ["--capture-image"] }, work: work)
            guard results.allSatisfy({ $0.status == 0 }) else {
                throw BenchmarkFailure("gphoto2 --capture-image failed: \(results.first { $0.status != 0 }!)")
            }
            let (skew, releases) = try skew(server)
            guard releases == count else { throw BenchmarkFailure("gphoto2: \(releases) of \(count) shutters opened") }
            figures.gphotoSkews.append(skew)
        }
        // gphoto2 fetches as fast as it can; its whole run per frame (start and connection included) is what the
        // recipe costs, as a difference of two runs is too noisy with several processes at once.
        let movies = try runTogether(gphoto.map { $0 + ["--capture-movie=\(gphotoMovieFrames)"] }, work: work)
        guard movies.allSatisfy({ $0.status == 0 }) else {
            throw BenchmarkFailure("gphoto2 --capture-movie failed: \(movies.first { $0.status != 0 }!)")
        }
        figures.gphotoCPUPerFrame =
            movies.map(\.cpuSeconds).reduce(0, +) / Double(count * (gphotoMovieFrames + 1))
        say(
            "  gphoto2: shutter skew \(format(median(figures.gphotoSkews) * 1000, 2)) ms, live view "
                + "\(format((figures.gphotoCPUPerFrame ?? 0) * 1e6, 0)) µs CPU per frame (whole run)")
        return figures
    }

    /// Starts every command at once, each in a folder of its own, and waits for all of them.
    static func runTogether(_ commands: [[String]], work: String) throws -> [ChildProcess.Result] {
        let processes = try commands.enumerated().map { index, command in
            let folder = "\(work)/gphoto\(index)"
            mkdir(folder, 0o755)
            let line = command.map { "'\($0)'" }.joined(separator: " ")
            return try ChildProcess("/bin/sh", ["-c", "cd '\(folder)' && exec \(line)"], mergingErrors: true)
        }
        return try processes.map { process in
            guard process.wait(timeout: .seconds(300)) != nil, let result = process.result else {
                throw BenchmarkFailure("a gphoto2 process did not finish")
            }
            return result
        }
    }

    /// Sends a request line to the server and reads its answer.
    @discardableResult
    static func request(_ server: ChildProcess, _ line: String) throws -> String {
        try server.write(line + "\n")
        guard let answer = server.readLine(timeout: .seconds(60)) else {
            throw BenchmarkFailure("the simulated cameras did not answer '\(line)'")
        }
        return answer
    }

    /// The skew of the shutter openings since the last mark, in seconds, and how many cameras opened theirs.
    static func skew(_ server: ChildProcess) throws -> (Double, Int) {
        let fields = try request(server, "skew").split(separator: " ")
        guard fields.count == 4, let nanoseconds = Double(fields[1]), let fired = Int(fields[3]) else {
            throw BenchmarkFailure("the simulated cameras answered \(fields)")
        }
        return (nanoseconds / 1e9, fired)
    }

    /// Keeps both cores of the cooperative pool busy for a moment, so its threads exist before threads are counted.
    static func warmUpPool() async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var x = 0
                    for index in 0..<2_000_000 { x &+= index }
                    _ = x
                }
            }
        }
    }

    /// The context switches of this process's threads so far: voluntary (waiting) and involuntary (preempted).
    static func contextSwitches() -> Int {
        ProcessThreads.lines(of: "status").joined().reduce(0) { total, line in
            let counted = line.hasPrefix("voluntary_ctxt_switches:") || line.hasPrefix("nonvoluntary_ctxt_switches:")
            return total + (counted ? Int(line.filter(\.isNumber)) ?? 0 : 0)
        }
    }

    /// The number of threads in this process.
    static func threadCount() -> Int {
        ProcessThreads.ids().count
    }

    /// Prints the table and how each figure grows with N, and the targets.
    static func report(_ all: [RigFigures]) {
        say(
            "CAMERAS  CONNECT   THREADS/CAM  +LIVE VIEW  MEMORY/CAM  IDLE CPU/CAM  SKEW MEDIAN  SKEW MAX  "
                + "REQUEST SPREAD  FPS/CAM  CPU/CAM-FRAME  SWITCHES/FRAME  CAMERAS' CPU/FRAME  GPHOTO2 SKEW  "
                + "GPHOTO2 CPU/FRAME (WHOLE RUN)")
        for figures in all {
            let columns = [
                pad("\(figures.cameras)", 9), pad("\(format(figures.connectSeconds, 3)) s", 10),
                pad(format(figures.threadsPerCamera, 2), 13), pad(format(figures.liveViewThreadsPerCamera, 2), 12),
                pad("\(format(figures.bytesPerCamera / 1024, 0)) KiB", 12),
                pad("\(format(figures.idleCPUPerCameraSecond * 1e6, 0)) µs/s", 14),
                pad("\(format(median(figures.skews) * 1000, 2)) ms", 13),
                pad("\(format((figures.skews.max() ?? 0) * 1000, 2)) ms", 10),
                pad("\(format(median(figures.requestSpreads) * 1000, 2)) ms", 16),
                pad(format(figures.framesPerCameraPerSecond, 1), 9),
                pad("\(format(figures.cpuPerFrame * 1e6, 0)) µs", 15),
                pad(format(figures.switchesPerFrame, 1), 16),
                pad("\(format(figures.serverCPUPerFrame * 1e6, 0)) µs", 20),
                pad(figures.gphotoSkews.isEmpty ? "-" : "\(format(median(figures.gphotoSkews) * 1000, 1)) ms", 14),
                figures.gphotoCPUPerFrame.map { "\(format($0 * 1e6, 0)) µs" } ?? "-",
            ]
            say(columns.joined())
        }
        say("")
        guard let one = all.first(where: { $0.cameras == 1 }) else { return }
        for figures in all where figures.cameras > 1 {
            say(
                "N = \(figures.cameras) against N = 1: CPU per camera-frame \(format(figures.cpuPerFrame / one.cpuPerFrame, 2))×, "
                    + "threads per camera \(format(figures.threadsPerCamera, 2)), skew \(format(median(figures.skews) * 1000, 2)) ms"
                    + (figures.gphotoCPUPerFrame.map {
                        "; against gphoto2: skew \(format(median(figures.skews) / max(median(figures.gphotoSkews), 1e-9), 3))×, "
                            + "CPU per frame \(format(figures.cpuPerFrame / max($0, 1e-9), 2))×"
                    } ?? ""))
        }
        if let sixteen = all.first(where: { $0.cameras == 16 }) {
            say("")
            say("targets")
            let skew = median(sixteen.skews) * 1000
            say("  \(skew <= 5 ? "met    " : "NOT MET") shutter skew ≤ 5 ms at N = 16: \(format(skew, 2)) ms")
            let growth = sixteen.cpuPerFrame / one.cpuPerFrame
            say(
                "  \(abs(growth - 1) <= 0.2 ? "met    " : "NOT MET") CPU per camera-frame flat within 20% from 1 to 16: "
                    + "\(format(growth, 2))×")
            let threads = all.map(\.threadsPerCamera).max() ?? 0
            say("  \(threads <= 2 ? "met    " : "NOT MET") threads per camera ≤ 2: at most \(format(threads, 2))")
        }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(width - text.count, 1))
    }
}
