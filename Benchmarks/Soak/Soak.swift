import BenchmarkSupport
import Dispatch
import Synchronization
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderSystem

/// Live view and property changes on the simulated Nikon camera, in this process, for a set time, with readings of
/// resident memory, open file descriptors and threads at intervals, and a verdict against limits at the end.
struct Soak {
    /// How long the soak runs and what it holds the process to.
    struct Options {
        /// Seconds of live view and property changes.
        var duration = 60.0
        /// Seconds between readings.
        var interval = 5.0
        /// Seconds before the reading later ones are compared with: caches, pools and thread stacks fill up first.
        var warmUp = 15.0
        /// The consumer's pace, in frames a second (the camera makes 30).
        var frameRate = 15.0
        /// Seconds between property changes.
        var propertyInterval = 0.3
        /// How far resident memory may grow after the warm-up, in MiB.
        var residentGrowthLimit = 5.0
    }

    /// What the live view consumer and the property changer did.
    final class Activity: Sendable {
        let frames = Atomic(0)
        let sets = Atomic(0)
        let problems = Locked<[String]>([])

        func report(_ problem: String) {
            problems.withLock { $0.append(problem) }
        }
    }

    let options: Options
    private let started = ContinuousClock.now

    init(options: Options) {
        self.options = options
    }

    private var elapsed: Double {
        let (seconds, attoseconds) = (ContinuousClock.now - started).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Runs the soak and prints its readings and verdict.
    ///
    /// - Returns: Whether every limit held.
    func run() async throws -> Bool {
        // Dispatch and Swift concurrency open their own descriptors (epoll, eventfd, timerfd) on first use, once.
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { continuation.resume() }
        }
        try await Task.sleep(for: .milliseconds(10))
        let before = Reading.take(elapsed: 0)
        let descriptorsBefore = Reading.descriptorTargets()
        let simulator = try CameraSimulator(configuration: .init(identity: .nikon, port: 0, sampleImageCount: 0))
        try simulator.start()
        let camera = PTPCamera(host: "127.0.0.1", transport: .init(port: simulator.port, clientName: "soak"))
        try await camera.connect()
        let model = camera.deviceInfo?.model ?? "?"
        say(
            "soak: live view at \(options.frameRate.tenths) fps and a property change every "
                + "\(options.propertyInterval.tenths) s for \(options.duration.tenths) s on \(model) at "
                + "127.0.0.1:\(simulator.port); warm-up \(options.warmUp.tenths) s")
        say("  before: \(before.residentMegabytes.tenths) MiB resident, \(before.descriptors) descriptors")

        let activity = Activity()
        let liveView = consumeLiveView(of: camera, activity: activity)
        let changer = Task { await changeProperties(of: camera, activity: activity) }
        let readings = try await takeReadings(activity)
        changer.cancel()
        await changer.value
        liveView.cancel()
        try await camera.disconnect()
        simulator.stop()
        // The session's threads close their sockets as they end, just after the disconnect returns: give them up to
        // five seconds.
        var after = Reading.take(elapsed: elapsed)
        for _ in 0..<100 where after.descriptors > before.descriptors {
            try await Task.sleep(for: .milliseconds(50))
            after = Reading.take(elapsed: elapsed)
        }
        let added = Reading.descriptorTargets().filter { descriptorsBefore[$0.key] != $0.value }
        say(
            "  after the camera disconnected: \(after.residentMegabytes.tenths) MiB resident, \(after.descriptors) "
                + "descriptors" + (added.isEmpty ? "" : "; new: " + added.values.sorted().joined(separator: ", ")))
        return verdict(readings, activity: activity, before: before, after: after)
    }

    /// Consumes live view at a steady pace: each frame is held for one frame time, then the next is asked for.
    private func consumeLiveView(of camera: PTPCamera, activity: Activity) -> AnyCancellable {
        let consumer = DispatchQueue(label: "soak-consumer")
        let frameTime = DispatchTimeInterval.nanoseconds(Int(1e9 / options.frameRate))
        return camera.liveViewPublisher.receive(on: consumer)
            .sinkWithReadyHandler { completion in
                activity.report("live view ended: \(completion)")
            } receiveValue: { frame, ready in
                consumer.asyncAfter(deadline: .now() + frameTime) {
                    withExtendedLifetime(frame) {}
                    activity.frames.add(1, ordering: .relaxed)
                    ready()
                }
            }
    }

    /// Sets ISO and white balance in turn, each to the next of a few values, until cancelled.
    private func changeProperties(of camera: PTPCamera, activity: Activity) async {
        let isos: [ISOValue] = [.iso200, .iso400, .iso800, .iso100]
        let balances: [WhiteBalanceValue] = [.daylight, .tungsten, .automatic]
        var turn = 0
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: .seconds(options.propertyInterval))
                if turn.isMultiple(of: 2) {
                    try await camera.property(for: .iso).setValue(isos[(turn / 2) % isos.count])
                } else {
                    try await camera.property(for: .whiteBalance).setValue(balances[(turn / 2) % balances.count])
                }
                activity.sets.add(1, ordering: .relaxed)
                turn += 1
            } catch is CancellationError {
                return
            } catch {
                activity.report("setting a property failed: \(error)")
            }
        }
    }

    /// Takes a reading at each interval and at the end of the warm-up, printing each, until the duration is over.
    private func takeReadings(_ activity: Activity) async throws -> [Reading] {
        var times = Array(stride(from: options.interval, to: options.duration, by: options.interval))
        times = Array(Set(times + [options.warmUp, options.duration])).sorted()
        var readings: [Reading] = []
        var lastFrames = (elapsed: 0.0, count: 0)
        for time in times {
            let wait = time - elapsed
            if wait > 0 {
                try await Task.sleep(for: .seconds(wait))
            }
            let reading = Reading.take(elapsed: elapsed)
            let frames = activity.frames.load(ordering: .relaxed)
            let rate = Double(frames - lastFrames.count) / max(reading.elapsed - lastFrames.elapsed, 0.001)
            lastFrames = (reading.elapsed, frames)
            say(
                "  \(reading.elapsed.tenths) s: \(frames) frames (\(rate.tenths) fps), "
                    + "\(activity.sets.load(ordering: .relaxed)) property changes, "
                    + "\(reading.residentMegabytes.tenths) MiB resident, \(reading.descriptors) descriptors, "
                    + "\(reading.threads) threads" + (time == options.warmUp ? " (end of warm-up)" : ""))
            readings.append(reading)
        }
        return readings
    }

    /// Prints whether each limit held.
    private func verdict(_ readings: [Reading], activity: Activity, before: Reading, after: Reading) -> Bool {
        guard let warm = readings.first(where: { $0.elapsed >= options.warmUp }) else {
            say("NOT MET: no reading after the warm-up")
            return false
        }
        let later = readings.filter { $0.elapsed > warm.elapsed }
        let growth = (later.map(\.residentBytes).max() ?? warm.residentBytes) - warm.residentBytes
        let growthMiB = Double(growth) / 1_048_576
        let descriptors = Set(later.map(\.descriptors) + [warm.descriptors])
        let problems = activity.problems.withLock { $0 }
        let frames = activity.frames.load(ordering: .relaxed)
        let sets = activity.sets.load(ordering: .relaxed)
        let expectedFrames = Int(options.duration * options.frameRate / 2)
        let expectedSets = Int(options.duration / options.propertyInterval / 2)
        var met = true
        met =
            check(
                "resident memory growth after the warm-up below \(options.residentGrowthLimit.tenths) MiB",
                growthMiB < options.residentGrowthLimit,
                "\(warm.residentMegabytes.tenths) MiB at \(warm.elapsed.tenths) s, at most "
                    + "\((later.map(\.residentMegabytes).max() ?? warm.residentMegabytes).tenths) MiB later: "
                    + "\(growthMiB.tenths) MiB") && met
        met =
            check(
                "open descriptors flat after the warm-up", descriptors.count == 1,
                "\(descriptors.sorted().map(String.init).joined(separator: ", "))") && met
        met =
            check(
                "descriptors back to the count before the camera connected", after.descriptors <= before.descriptors,
                "\(before.descriptors) before, \(after.descriptors) after") && met
        met =
            check(
                "live view kept going", frames >= expectedFrames,
                "\(frames) frames consumed, at least \(expectedFrames) expected") && met
        met =
            check(
                "property changes kept going", sets >= expectedSets,
                "\(sets) changes, at least \(expectedSets) expected") && met
        met =
            check("nothing failed", problems.isEmpty, problems.isEmpty ? "none" : problems.joined(separator: "; "))
            && met
        say(met ? "soak: every limit held" : "soak: FAILED")
        return met
    }

    private func check(_ name: String, _ met: Bool, _ detail: String) -> Bool {
        say("  \(met ? "met    " : "NOT MET") \(name): \(detail)")
        return met
    }
}
