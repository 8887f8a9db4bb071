import BenchmarkSupport
import Foundation
import Synchronization
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSystem
import ViewfinderTestSupport

/// What each row of the HTTP camera benchmark measures the same way: a camera's live view publisher in this
/// process, and a peer's live view script run as its own process.
enum LiveViewMeasurement {
    /// Frames per second and CPU per frame of `camera`'s live view publisher for `seconds` after its first frame,
    /// with a subscriber that is always ready and counts each JPEG; connects and disconnects the camera.
    static func measure(_ camera: some Camera, seconds: Double) async throws -> (
        fps: Double, cpuPerFrame: Double, frames: Int
    ) {
        try await camera.connect()
        let frames = Atomic<Int>(0)
        let bytes = Atomic<Int>(0)
        let failure = Locked<String?>(nil)
        let cancellable = camera.liveViewPublisher(options: [.skipImageDecoding: true])
            .sinkWithReadyHandler { completion in
                if case .failure(let error) = completion { failure.withLock { $0 = "\(error)" } }
            } receiveValue: { frame, readyForNextFrame in
                bytes.add(frame.jpegData.count, ordering: .relaxed)
                frames.add(1, ordering: .relaxed)
                readyForNextFrame()
            }
        let deadline = ContinuousClock.now + .seconds(10)
        while frames.load(ordering: .relaxed) == 0 {
            if let message = failure.withLock({ $0 }) { throw BenchmarkFailure("live view failed: \(message)") }
            guard ContinuousClock.now < deadline else { throw BenchmarkFailure("live view gave no frame") }
            try await Task.sleep(for: .milliseconds(1))
        }
        let before = frames.load(ordering: .relaxed)
        let cpuBefore = processCPUSeconds()
        let start = ContinuousClock.now
        try await Task.sleep(for: .seconds(seconds))
        let count = frames.load(ordering: .relaxed) - before
        let elapsed = start.duration(to: .now)
        let cpu = processCPUSeconds() - cpuBefore
        cancellable.cancel()
        try await camera.disconnect()
        if let message = failure.withLock({ $0 }) { throw BenchmarkFailure("live view failed: \(message)") }
        guard count > 0, bytes.load(ordering: .relaxed) > 0 else { throw BenchmarkFailure("live view stalled") }
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return (Double(count) / wall, cpu / Double(count), count)
    }

    /// The median frames per second and CPU seconds per frame of `runs` runs of a peer's live view script, from each
    /// run's first frame to its last, as the script measures them; the script prints a JSON line with `frames`,
    /// `jpeg`, `secondsAfterFirst` and `cpuSecondsAfterFirst`.
    static func measurePeer(_ command: [String], runs: Int) throws -> (fps: Double, cpuPerFrame: Double) {
        struct Report: Decodable {
            var frames: Int
            var jpeg: Bool
            var secondsAfterFirst: Double
            var cpuSecondsAfterFirst: Double
        }
        var rates: [Double] = []
        var cpus: [Double] = []
        for _ in 0..<runs {
            let outcome = try ChildProcess.run(command[0], Array(command.dropFirst()))
            guard outcome.status == 0,
                let line = outcome.standardOutput.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
                let report = try? JSONDecoder().decode(Report.self, from: Data(line.utf8)), report.jpeg,
                report.frames > 1, report.secondsAfterFirst > 0
            else {
                throw BenchmarkFailure("\(command.joined(separator: " ")) failed:\n\(outcome)")
            }
            rates.append(Double(report.frames - 1) / report.secondsAfterFirst)
            cpus.append(report.cpuSecondsAfterFirst / Double(report.frames - 1))
        }
        return (median(rates), median(cpus))
    }

    /// Prints a target's verdict.
    static func verdict(_ name: String, _ met: Bool, _ detail: String) -> Bool {
        say("  \(met ? "met    " : "NOT MET") \(name): \(detail)")
        return met
    }
}
