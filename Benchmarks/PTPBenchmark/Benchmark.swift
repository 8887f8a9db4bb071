import BenchmarkSupport
import Synchronization
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The benchmark's measurements and the targets they are held to.
enum Benchmark {
    static let downloadRuns = 10
    static let gphoto2Runs = 5
    static let liveViewSeconds = 3.0
    static let movieFrames = 300

    static func run(executable: String) async throws {
        let work = String(cString: mkdtemp(strdup("/tmp/ptp-benchmark.XXXXXX")))
        // gphoto2 keeps settings in $HOME and writes movie.mjpg to the current directory: both go to a scratch one.
        setenv("HOME", work, 1)
        chdir(work)
        defer { _ = try? runCommand(["rm", "-rf", work]) }
        say("PTP/IP benchmark: a \(BenchmarkObject.size / 1_000_000) MB download and Nikon live view, then Canon EOS")
        say("live view and property sets, then Sony live view and a stepped ISO set, then Fujifilm live view,")
        say("Viewfinder's client against gphoto2 on the same simulated camera (a separate process).\n")

        let loopback = try loopbackThroughput()
        say("loopback TCP (iperf3, 3 s):       \(format(loopback / 1e6, 0)) MB/s\n")

        let server = try ChildProcess(executable, ["serve"])
        defer {
            server.closeInput()
            _ = server.wait(timeout: .seconds(30))
        }
        guard let line = server.readLine(), line.hasPrefix("port "),
            let port = UInt16(line.split(separator: " ")[1]), let handle = UInt32(line.split(separator: " ")[3])
        else { throw BenchmarkError("the simulated camera did not start") }
        let expected = BenchmarkObject.bytes()

        // Viewfinder's client: downloads over one open session.
        let session = try await PTPSession.connect(to: "127.0.0.1", configuration: .init(port: port))
        guard try await session.object(handle) == expected else {
            throw BenchmarkError("Viewfinder's download differs from the object")
        }
        var seconds: [Double] = []
        let cpuBefore = processCPUSeconds()
        let serverBefore = server.cpuSecondsSoFar()
        for _ in 0..<downloadRuns {
            let start = ContinuousClock.now
            let bytes = try await session.object(handle)
            seconds.append(start.duration(to: .now).inSeconds)
            guard bytes.count == BenchmarkObject.size else { throw BenchmarkError("short download") }
        }
        let ourCPU = (processCPUSeconds() - cpuBefore) / Double(downloadRuns)
        let serverCPU = (server.cpuSecondsSoFar() - serverBefore) / Double(downloadRuns)
        await session.close()
        let megabytes = Double(BenchmarkObject.size) / 1e6
        let ours = Double(BenchmarkObject.size) / median(seconds)

        // gphoto2 --get-file, and the same command line without the download as its fixed cost.
        let gphoto2 = ["gphoto2", "--port", "ptpip:127.0.0.1:\(port):\(port)", "--camera", "Nikon DSLR (WLAN)"]
        let folder = ["--folder", "/store_00010001/DCIM/100NIKON"]
        let download = try measure(
            gphoto2 + folder + ["--get-file", "1", "--filename", "object.nef", "--force-overwrite"])
        guard try readFile("\(work)/object.nef") == expected else {
            throw BenchmarkError("gphoto2's download differs from the object")
        }
        let listing = try measure(gphoto2 + folder + ["--list-files"])
        let gphotoTransfer = max(download.wall - listing.wall, 1e-6)
        let gphotoCPU = max(download.cpu - listing.cpu, 1e-6)

        say(
            "download of \(format(megabytes, 0)) MB (median of \(downloadRuns) for Viewfinder, \(gphoto2Runs) for gphoto2)"
        )
        say(
            "  Viewfinder PTPSession.object:    \(format(ours / 1e6, 0)) MB/s, \(format(ourCPU * 1000 / megabytes, 3)) ms CPU/MB"
        )
        say(
            "  gphoto2 --get-file, whole run:   \(format(Double(BenchmarkObject.size) / download.wall / 1e6, 0)) MB/s, "
                + "\(format(download.cpu * 1000 / megabytes, 3)) ms CPU/MB (\(format(download.wall, 3)) s, "
                + "\(format(download.cpu, 3)) s CPU)")
        say("  gphoto2 --list-files (fixed cost): \(format(listing.wall, 3)) s, \(format(listing.cpu, 3)) s CPU")
        say(
            "  gphoto2 transfer alone:          \(format(Double(BenchmarkObject.size) / gphotoTransfer / 1e6, 0)) MB/s, "
                + "\(format(gphotoCPU * 1000 / megabytes, 3)) ms CPU/MB")
        say("  simulated camera while serving Viewfinder: \(format(serverCPU * 1000 / megabytes, 3)) ms CPU/MB\n")

        let liveView = try await measureLiveView(port: port, work: work)
        let (movie, gphotoFPS, gphotoFrameCPU) = try measureMovie(gphoto2)
        say("live view (Nikon GetLiveViewImg, 640x424 JPEG frames appended to a file; the camera renders 30 new")
        say("frames a second and answers faster requests with its current frame, as a camera's live view buffer does)")
        say(
            "  Viewfinder nikonLiveViewFrame:   \(format(liveView.fps, 0)) frames/s, "
                + "\(format(liveView.cpuPerFrame * 1e6, 0)) µs CPU/frame (\(liveView.frames) frames in \(format(liveViewSeconds, 0)) s)"
        )
        say(
            "  gphoto2 --capture-movie=\(movieFrames):    \(format(Double(movieFrames + 1) / movie.wall, 0)) frames/s, "
                + "\(format(movie.cpu / Double(movieFrames + 1) * 1e6, 0)) µs CPU/frame for the whole run")
        say(
            "  gphoto2 per extra frame (vs 1):  \(format(gphotoFPS, 0)) frames/s, \(format(gphotoFrameCPU * 1e6, 0)) µs CPU/frame\n"
        )

        let floorLiveView = try measureFloorLiveView(port: port, work: work)
        let requests = try await measureSmallRequests(port: port)
        say("the floor: the same requests' bytes over one socket to the same camera, read with one copy, no session")
        say(
            "  live view frame:  floor \(format(floorLiveView.cpuPerFrame * 1e6, 0)) µs CPU/frame "
                + "(\(format(floorLiveView.fps, 0)) frames/s); Viewfinder \(format(liveView.cpuPerFrame / floorLiveView.cpuPerFrame, 2))× the floor"
        )
        say(
            "  GetDevicePropValue: floor \(format(requests.floor * 1e6, 1)) µs CPU/request; Viewfinder "
                + "\(format(requests.viewfinder * 1e6, 1)) µs, \(format(requests.viewfinder / requests.floor, 2))× the floor\n"
        )

        say("targets (against gphoto2's transfer alone and its per-frame cost, the stricter figures)")
        var met = true
        met =
            verdict(
                "download throughput above gphoto2's", ours > Double(BenchmarkObject.size) / gphotoTransfer,
                "\(format(ours / (Double(BenchmarkObject.size) / gphotoTransfer), 2))×") && met
        met =
            verdict(
                "download throughput ≥ 50% of loopback TCP", ours >= loopback / 2,
                "\(format(ours / loopback * 100, 0)) %")
            && met
        met =
            verdict(
                "client CPU per MB ≤ ½ of gphoto2's", ourCPU <= gphotoCPU / 2,
                "\(format(ourCPU / gphotoCPU, 3))× gphoto2's") && met
        met =
            verdict(
                "live view frames/s ≥ gphoto2's", liveView.fps >= gphotoFPS, "\(format(liveView.fps / gphotoFPS, 2))×")
            && met
        met =
            verdict(
                "CPU per live view frame ≤ ½ of gphoto2's", liveView.cpuPerFrame <= gphotoFrameCPU / 2,
                "\(format(liveView.cpuPerFrame / gphotoFrameCPU, 3))× gphoto2's") && met
        met =
            verdict(
                "CPU per live view frame ≤ 2× the floor", liveView.cpuPerFrame <= 2 * floorLiveView.cpuPerFrame,
                "\(format(liveView.cpuPerFrame / floorLiveView.cpuPerFrame, 2))× the floor") && met
        met =
            verdict(
                "CPU per small request ≤ 2× the floor", requests.viewfinder <= 2 * requests.floor,
                "\(format(requests.viewfinder / requests.floor, 2))× the floor") && met
        say("")
        met = try await ListingBenchmark.run() && met
        met = try await MemoryBenchmark.run() && met
        met = try await CanonBenchmark.run(executable: executable, work: work) && met
        say("")
        met = try await SonyBenchmark.run(executable: executable, work: work) && met
        say("")
        met = try await FujiBenchmark.run(executable: executable, work: work) && met
        say(met ? "\nevery target met" : "\nsome targets not met")
    }

    /// Runs only one row, such as the Fujifilm one, in a scratch folder as the whole run does.
    static func runAlone(
        executable: String, _ row: (_ executable: String, _ work: String) async throws -> Bool
    ) async throws {
        let work = String(cString: mkdtemp(strdup("/tmp/ptp-benchmark.XXXXXX")))
        setenv("HOME", work, 1)
        chdir(work)
        defer { _ = try? runCommand(["rm", "-rf", work]) }
        let met = try await row(executable, work)
        say(met ? "\nevery target met" : "\nsome targets not met")
    }

    /// Runs only Viewfinder's live view and small-request loops, for a profiler to sample.
    static func profile(executable: String) async throws {
        let server = try ChildProcess(executable, ["serve"])
        defer {
            server.closeInput()
            _ = server.wait(timeout: .seconds(30))
        }
        guard let line = server.readLine(), line.hasPrefix("port "), let port = UInt16(line.split(separator: " ")[1])
        else { throw BenchmarkError("the simulated camera did not start") }
        let session = try await PTPSession.connect(to: "127.0.0.1", configuration: .init(port: port))
        try await session.startNikonLiveView()
        var frames = 0
        var start = ContinuousClock.now
        while start.duration(to: .now) < .seconds(5) {
            _ = try await session.nikonLiveViewFrame()
            frames += 1
        }
        try await session.endNikonLiveView()
        var requests = 0
        start = .now
        while start.duration(to: .now) < .seconds(5) {
            _ = try await session.propertyValue(.exposureIndex, of: .uint16)
            requests += 1
        }
        await session.close()
        say("\(frames) live view frames, \(requests) GetDevicePropValue requests")
    }

    /// Wall and CPU seconds of a command line: the medians of `runs` runs.
    static func measure(_ command: [String], runs: Int = gphoto2Runs) throws -> (wall: Double, cpu: Double) {
        var walls: [Double] = []
        var cpus: [Double] = []
        for _ in 0..<runs {
            let outcome = try runCommand(command)
            guard outcome.status == 0, !outcome.output.contains("*** Error") else {
                throw BenchmarkError("\(command.joined(separator: " ")) failed:\n\(outcome.output)")
            }
            walls.append(outcome.wallSeconds)
            cpus.append(outcome.cpuSeconds)
        }
        return (median(walls), median(cpus))
    }

    /// Frames and CPU per frame of a camera's live view publisher over a few seconds, after the first frame, with a
    /// subscriber that is always ready and appends each JPEG to a file, as gphoto2 --capture-movie does.
    static func measureLiveView(of camera: PTPCamera, named name: String, work: String) async throws -> (
        fps: Double, cpuPerFrame: Double, frames: Int
    ) {
        let file = open("\(work)/\(name.lowercased()).mjpg", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(file) }
        let frames = Atomic<Int>(0)
        let failure = Locked<String?>(nil)
        let cancellable = camera.liveViewPublisher(options: [.skipImageDecoding: true])
            .sinkWithReadyHandler { completion in
                if case .failure(let error) = completion { failure.withLock { $0 = "\(error)" } }
            } receiveValue: { frame, readyForNextFrame in
                _ = frame.jpegData.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
                frames.add(1, ordering: .relaxed)
                readyForNextFrame()
            }
        defer { cancellable.cancel() }
        let deadline = ContinuousClock.now + .seconds(10)
        while frames.load(ordering: .relaxed) == 0 {
            if let message = failure.withLock({ $0 }) { throw BenchmarkError("\(name) live view failed: \(message)") }
            guard ContinuousClock.now < deadline else { throw BenchmarkError("\(name) live view gave no frame") }
            try await Task.sleep(for: .milliseconds(1))
        }
        let before = frames.load(ordering: .relaxed)
        let cpuBefore = processCPUSeconds()
        let start = ContinuousClock.now
        try await Task.sleep(for: .seconds(liveViewSeconds))
        let count = frames.load(ordering: .relaxed) - before
        let elapsed = start.duration(to: .now).inSeconds
        let cpu = processCPUSeconds() - cpuBefore
        if let message = failure.withLock({ $0 }) { throw BenchmarkError("\(name) live view failed: \(message)") }
        guard count > 0 else { throw BenchmarkError("\(name) live view stalled") }
        return (Double(count) / elapsed, cpu / Double(count), count)
    }

    /// gphoto2 --capture-movie: the whole run of ``movieFrames`` frames, and the frames per second and CPU seconds
    /// per frame beyond a run of one frame (its fixed cost), the medians of three runs each.
    static func measureMovie(_ gphoto2: [String]) throws -> (
        movie: (wall: Double, cpu: Double), fps: Double, cpuPerFrame: Double
    ) {
        let movie = try measure(gphoto2 + ["--capture-movie=\(movieFrames)"], runs: 3)
        let single = try measure(gphoto2 + ["--capture-movie=0"], runs: 3)
        return (
            movie, Double(movieFrames) / max(movie.wall - single.wall, 1e-6),
            max(movie.cpu - single.cpu, 1e-6) / Double(movieFrames)
        )
    }

    /// Fetches live view frames for a few seconds and appends each JPEG to a file, as gphoto2 --capture-movie does.
    static func measureLiveView(port: UInt16, work: String) async throws -> (
        fps: Double, cpuPerFrame: Double, frames: Int
    ) {
        let session = try await PTPSession.connect(to: "127.0.0.1", configuration: .init(port: port))
        try await session.startNikonLiveView()
        let file = open("\(work)/viewfinder.mjpg", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(file) }
        _ = try await session.nikonLiveViewFrame()
        var frames = 0
        let cpuBefore = processCPUSeconds()
        let start = ContinuousClock.now
        while start.duration(to: .now).inSeconds < liveViewSeconds {
            let frame = try await session.nikonLiveViewFrame()
            _ = frame.data.withUnsafeBytes {
                write(file, $0.baseAddress! + frame.jpegRange.lowerBound, frame.jpegRange.count)
            }
            frames += 1
        }
        let elapsed = start.duration(to: .now).inSeconds
        let cpu = processCPUSeconds() - cpuBefore
        try await session.endNikonLiveView()
        await session.close()
        return (Double(frames) / elapsed, cpu / Double(frames), frames)
    }

    /// The floor of a live view frame: StartLiveView, DeviceReady until the camera is ready, then GetLiveViewImg
    /// for a few seconds, each JPEG appended to a file as Viewfinder's loop does.
    static func measureFloorLiveView(port: UInt16, work: String) throws -> (fps: Double, cpuPerFrame: Double) {
        let client = try FloorClient(port: port)
        guard try client.transact(.nikonStartLiveView) == 0x2001 else { throw BenchmarkError("StartLiveView failed") }
        let ready = ContinuousClock.now
        while try client.transact(.nikonDeviceReady) != 0x2001 {
            guard ready.duration(to: .now) < .seconds(5) else { throw BenchmarkError("live view never became ready") }
            usleep(10_000)
        }
        let file = open("\(work)/floor.mjpg", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(file) }
        try client.transact(.nikonGetLiveViewImage)
        var frames = 0
        let cpuBefore = processCPUSeconds()
        let start = ContinuousClock.now
        while start.duration(to: .now).inSeconds < liveViewSeconds {
            guard try client.transact(.nikonGetLiveViewImage) == 0x2001, client.payloadLength > 384 else {
                throw BenchmarkError("GetLiveViewImg failed")
            }
            _ = write(file, client.payload.baseAddress! + 384, client.payloadLength - 384)
            frames += 1
        }
        let elapsed = start.duration(to: .now).inSeconds
        let cpu = processCPUSeconds() - cpuBefore
        try client.transact(.nikonEndLiveView)
        return (Double(frames) / elapsed, cpu / Double(frames))
    }

    /// CPU seconds per GetDevicePropValue of ExposureIndex, by the floor client and by a Viewfinder session.
    static func measureSmallRequests(port: UInt16) async throws -> (floor: Double, viewfinder: Double) {
        let count = 3000
        var floor = 0.0
        do {
            let client = try FloorClient(port: port)
            try client.transact(.getDevicePropValue, [UInt32(PTPDevicePropertyCode.exposureIndex.rawValue)])
            let before = processCPUSeconds()
            for _ in 0..<count {
                guard try client.transact(.getDevicePropValue, [0x500F]) == 0x2001, client.payloadLength == 2 else {
                    throw BenchmarkError("GetDevicePropValue failed")
                }
            }
            floor = (processCPUSeconds() - before) / Double(count)
        }
        let session = try await PTPSession.connect(to: "127.0.0.1", configuration: .init(port: port))
        _ = try await session.propertyValue(.exposureIndex, of: .uint16)
        let before = processCPUSeconds()
        for _ in 0..<count {
            _ = try await session.propertyValue(.exposureIndex, of: .uint16)
        }
        let viewfinder = (processCPUSeconds() - before) / Double(count)
        await session.close()
        return (floor, viewfinder)
    }

    /// The bytes of a file.
    static func readFile(_ path: String) throws -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw BenchmarkError("cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return bytes
    }
}
