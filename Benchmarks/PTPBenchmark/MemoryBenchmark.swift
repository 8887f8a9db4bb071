import BenchmarkSupport
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderSimulator
import ViewfinderSystem

/// The client's resident memory while files far larger than it should hold go through it: a 5 GiB movie downloaded
/// in pieces, and a 1 GiB answer drained because it exceeds what a transaction collects in memory. (The tests check
/// the bytes and the errors; how much memory a process holds is measured here, in a process of its own.)
enum MemoryBenchmark {
    static let movieBytes: UInt64 = 5 << 30
    static let drainedBytes: UInt64 = 1 << 30
    /// The most the client may grow by in either case: a few pieces and buffers, far from the files' sizes.
    static let limit = 64 << 20

    /// Prints the figures and whether each stays within ``limit``; returns whether both do.
    static func run() async throws -> Bool {
        let simulator = try CameraSimulator(configuration: .init(port: 0, sampleImageCount: 0))
        try simulator.start()
        defer { simulator.stop() }
        let movie = try simulator.addGeneratedObject(named: "MVI_0001.MOV", format: .quickTime, byteCount: movieBytes)
        let drained = try simulator.addGeneratedObject(
            named: "MVI_0002.MOV", format: .quickTime, byteCount: drainedBytes)
        say("memory: large files through the client (the simulated camera in this process, its content made as sent)")

        let camera = PTPCamera(
            host: "127.0.0.1", transport: PTPIPTransport.Configuration(port: simulator.port, clientName: "benchmark"))
        try await camera.connect()
        guard let storage = try await camera.storages().first,
            let dcim = try await camera.contents(of: nil, in: storage).first,
            let folder = try await camera.contents(of: dcim, in: storage).first,
            let item = try await camera.contents(of: folder, in: storage).first(where: { $0.id == movie })
        else { throw BenchmarkError("the simulated card has no movie") }
        let before = residentBytes()
        let peak = Locked(before)
        let start = ContinuousClock.now
        try await camera.download(item) { _, progress in
            if progress.completedByteCount % (256 << 20) < UInt64(64 << 10) {
                let now = residentBytes()
                peak.withLock { $0 = max($0, now) }
            }
        }
        let seconds = start.duration(to: .now).inSeconds
        try await camera.disconnect()
        let downloadGrowth = peak.withLock { $0 } - before
        say(
            "  5 GiB movie downloaded in pieces:   \(format(Double(movieBytes) / seconds / 1e6, 0)) MB/s, resident "
                + "memory grew by \(format(Double(downloadGrowth) / 1_048_576, 1)) MiB at most")

        let session = try await PTPSession.connect(
            to: "127.0.0.1", configuration: PTPIPTransport.Configuration(port: simulator.port),
            session: PTPSession.Configuration(maximumInMemoryDataLength: 64 << 20))
        let drainBefore = residentBytes()
        let drainStart = ContinuousClock.now
        let drainPeak = Locked(drainBefore)
        do {
            _ = try await session.transaction(
                .getObject, parameters: [drained],
                progress: { progress in
                    if progress.completedBytes % (128 << 20) < 64 << 10 {
                        let now = residentBytes()
                        drainPeak.withLock { $0 = max($0, now) }
                    }
                })
            throw BenchmarkError("a 1 GiB GetObject was collected in memory beyond the 64 MiB limit")
        } catch let error as ViewfinderError where error.code == .invalidArgument {
            // Refused, as it must be, after the rest of the phase was read and dropped.
        }
        let drainSeconds = drainStart.duration(to: .now).inSeconds
        let next = try await session.objectHandles()
        await session.close()
        guard !next.isEmpty else { throw BenchmarkError("the session did not go on after the drain") }
        let drainGrowth = drainPeak.withLock { $0 } - drainBefore
        say(
            "  1 GiB answer beyond the 64 MiB limit: drained at \(format(Double(drainedBytes) / drainSeconds / 1e6, 0)) "
                + "MB/s, resident memory grew by \(format(Double(drainGrowth) / 1_048_576, 1)) MiB at most")
        let downloadMet = verdict(
            "a 5 GiB download grows the client by less than \(limit >> 20) MiB", downloadGrowth < limit,
            "\(format(Double(downloadGrowth) / 1_048_576, 1)) MiB")
        let drainMet = verdict(
            "a drained 1 GiB answer grows the client by less than \(limit >> 20) MiB", drainGrowth < limit,
            "\(format(Double(drainGrowth) / 1_048_576, 1)) MiB")
        say("")
        return downloadMet && drainMet
    }
}
