import BenchmarkSupport
import Dispatch
import Synchronization
import ViewfinderCore
import ViewfinderImaging
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderReactive
import ViewfinderSystem

/// The benchmark's runs and the targets they are held to.
enum LiveViewBenchmark {
    static let consumerRates: [Double] = [5, 15, 30]
    static let pacedSeconds = 8
    static let unthrottledSeconds = 5.0

    /// What one paced run measured.
    struct PacedRun {
        var rate: Double
        var fetched: Int
        var consumed: Int
        var residentMegabytes: [Double]

        var ratio: Double { Double(fetched) / Double(max(consumed, 1)) }
        /// How much the resident memory moved after the first second.
        var residentSpread: Double {
            let settled = residentMegabytes.dropFirst()
            return (settled.max() ?? 0) - (settled.min() ?? 0)
        }
    }

    static func run(executable: String) async throws {
        say("Live view benchmark: the live view publisher of PTPCamera against the simulated Nikon camera")
        say("(640x424 JPEG frames, 30 new frames a second, in a separate process), frames decoded to NV12.\n")
        let server = try CameraProcess(executable: executable)
        defer { server.stop() }
        let camera = PTPCamera(host: "127.0.0.1", transport: .init(port: server.port))
        try await camera.connect()
        let publisher = camera.liveViewPublisher

        // Warm up: live view on, caches and pools filled.
        _ = try await unthrottled(publisher, seconds: 2)

        var met = true
        var runs: [PacedRun] = []
        say("consumers that take 1/rate s per frame, subscribed with sinkWithReadyHandler (\(pacedSeconds) s each)")
        for rate in consumerRates {
            let run = try await paced(publisher, rate: rate)
            runs.append(run)
            say(
                "  \(format(rate, 0)) fps consumer: fetched \(run.fetched), consumed \(run.consumed), "
                    + "fetched ÷ consumed \(format(run.ratio, 3)), consumed \(format(Double(run.consumed) / Double(pacedSeconds), 1)) frames/s"
            )
            say("    RSS each second (MB): " + run.residentMegabytes.map { format($0, 1) }.joined(separator: " "))
        }

        let ours = try await unthrottled(publisher, seconds: unthrottledSeconds)
        try await camera.disconnect()
        let direct = try await directLoop(port: server.port, seconds: unthrottledSeconds)
        say("\nconsumer always ready (ready handler called at once), \(format(unthrottledSeconds, 0)) s; the camera")
        say("answers requests faster than its 30 frames a second with its current frame, as a live view buffer does")
        say(
            "  live view publisher:          \(format(ours.fps, 0)) frames/s, "
                + "\(format(ours.cpuPerFrame * 1e6, 0)) µs CPU/frame (\(ours.frames) frames)")
        say(
            "  plain session loop (peer):    \(format(direct.fps, 0)) frames/s, "
                + "\(format(direct.cpuPerFrame * 1e6, 0)) µs CPU/frame (\(direct.frames) frames): GetLiveViewImg, "
                + "JPEG header, decode into a pool")

        say("\ntargets")
        for run in runs {
            met =
                verdict(
                    "fetched ÷ consumed ≤ 1.05 at \(format(run.rate, 0)) fps", run.ratio <= 1.05, format(run.ratio, 3))
                && met
            met =
                verdict(
                    "RSS flat at \(format(run.rate, 0)) fps (spread ≤ 2 MB after the first second)",
                    run.residentSpread <= 2, "\(format(run.residentSpread, 2)) MB") && met
        }
        met =
            verdict(
                "unthrottled frame rate ≥ 90% of the plain loop's", ours.fps >= 0.9 * direct.fps,
                "\(format(ours.fps / direct.fps, 2))×") && met
        met =
            verdict(
                "CPU per frame ≤ 1.25× the plain loop's", ours.cpuPerFrame <= 1.25 * direct.cpuPerFrame,
                "\(format(ours.cpuPerFrame / direct.cpuPerFrame, 2))×") && met
        say(met ? "\nevery target met" : "\nsome targets not met")
    }

    /// Consumes frames at `rate` for the paced run's length, sampling the resident memory each second.
    static func paced(_ publisher: LiveViewPublisher, rate: Double) async throws -> PacedRun {
        let consumed = Atomic(0)
        let consumer = DispatchQueue(label: "consumer")
        let work = Duration.seconds(1 / rate)
        let before = publisher.statistics.framesFetched
        let cancellable = publisher.receive(on: consumer)
            .sinkWithReadyHandler { _ in
            } receiveValue: { frame, ready in
                // The consumer holds the frame while it works on it, then asks for the next.
                consumer.asyncAfter(deadline: .now() + .nanoseconds(Int(work.inSeconds * 1e9))) {
                    withExtendedLifetime(frame) {}
                    consumed.add(1, ordering: .relaxed)
                    ready()
                }
            }
        var resident: [Double] = []
        for _ in 0..<pacedSeconds {
            try await Task.sleep(for: .seconds(1))
            resident.append(residentMegabytes())
        }
        cancellable.cancel()
        let total = consumed.load(ordering: .relaxed)
        // Let a fetch under way finish, so that it is counted.
        try await Task.sleep(for: .milliseconds(200))
        return PacedRun(
            rate: rate, fetched: publisher.statistics.framesFetched - before, consumed: total,
            residentMegabytes: resident)
    }

    /// Consumes frames as fast as they come for `seconds`.
    static func unthrottled(_ publisher: LiveViewPublisher, seconds: Double) async throws -> (
        fps: Double, cpuPerFrame: Double, frames: Int
    ) {
        let consumed = Atomic(0)
        let cpuBefore = processCPUSeconds()
        let start = ContinuousClock.now
        let cancellable = publisher.sinkWithReadyHandler { _ in
        } receiveValue: { frame, ready in
            withExtendedLifetime(frame) {}
            consumed.add(1, ordering: .relaxed)
            ready()
        }
        try await Task.sleep(for: .seconds(seconds))
        cancellable.cancel()
        let elapsed = start.duration(to: .now).inSeconds
        let frames = consumed.load(ordering: .relaxed)
        return (Double(frames) / elapsed, (processCPUSeconds() - cpuBefore) / Double(max(frames, 1)), frames)
    }

    /// The same work without the publisher: a session fetching, measuring and decoding frames in a loop.
    static func directLoop(port: UInt16, seconds: Double) async throws -> (
        fps: Double, cpuPerFrame: Double, frames: Int
    ) {
        let session = try await PTPSession.connect(to: "127.0.0.1", configuration: .init(port: port))
        try await session.startNikonLiveView()
        let decoder = JPEGDecoder(toleratesDamagedData: true)
        var pool: PixelBufferPool?
        var frames = 0
        let cpuBefore = processCPUSeconds()
        let start = ContinuousClock.now
        while start.duration(to: .now).inSeconds < seconds {
            let jpeg = Array(try await session.nikonLiveViewFrame().jpeg)
            let size = try decoder.header(of: jpeg).dimensions
            if pool == nil {
                pool = try PixelBufferPool(width: size.width, height: size.height, format: .nv12FullRange, capacity: 4)
            }
            let image = try decoder.decode(jpeg, into: pool!)
            withExtendedLifetime(image) {}
            frames += 1
        }
        let elapsed = start.duration(to: .now).inSeconds
        let cpu = processCPUSeconds() - cpuBefore
        try await session.endNikonLiveView()
        await session.close()
        return (Double(frames) / elapsed, cpu / Double(max(frames, 1)), frames)
    }
}
