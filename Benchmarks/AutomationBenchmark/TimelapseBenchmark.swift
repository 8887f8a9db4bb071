import BenchmarkSupport
import ViewfinderCameras
import ViewfinderSystem
import ViewfinderTestSupport

/// Timelapses of a number of frames at a set interval, by Viewfinder's `Timelapse` and by gphoto2's
/// `--capture-image --interval` on the same simulated camera: the intervals between the times its shutter opened.
enum TimelapseBenchmark {
    /// One client's timelapse on one camera.
    struct Figures: Codable {
        var camera: String
        var client: String
        var frames: Int
        var intervalSeconds: Int
        /// The frames the camera took, and the intervals between them, in milliseconds.
        var framesTaken: Int
        var intervalsMilliseconds: [Double]
        var meanMilliseconds: Double
        var standardDeviationMilliseconds: Double
        /// The largest difference between an interval and the one asked, in milliseconds.
        var maxDeviationMilliseconds: Double

        init(camera: String, client: String, frames: Int, interval: Int, opened: [ContinuousClock.Instant]) {
            self.camera = camera
            self.client = client
            self.frames = frames
            intervalSeconds = interval
            framesTaken = opened.count
            intervalsMilliseconds = zip(opened, opened.dropFirst()).map { $0.duration(to: $1).inSeconds * 1000 }
            meanMilliseconds = mean(intervalsMilliseconds)
            standardDeviationMilliseconds = standardDeviation(intervalsMilliseconds)
            maxDeviationMilliseconds =
                intervalsMilliseconds.map { abs($0 - Double(interval) * 1000) }.max() ?? 0
        }
    }

    /// Runs Viewfinder's `Timelapse` of `frames` frames every `interval` seconds, the pictures left on the card.
    static func viewfinder(on camera: BenchCamera, frames: Int, interval: Int) async throws -> Figures {
        let before = camera.exposureCount
        let skipped = try await camera.withViewfinder { connected in
            var skipped = 0
            let timelapse = Timelapse(frames: frames, interval: .seconds(interval))
            for try await event in timelapse.start(on: connected).events {
                if case .skipped = event { skipped += 1 }
            }
            return skipped
        }
        let opened = camera.exposures(after: before).map(\.opened)
        guard opened.count + skipped == frames else {
            throw BenchmarkFailure(
                "Viewfinder's timelapse of \(frames) frames made \(opened.count) exposures and skipped \(skipped)")
        }
        return Figures(camera: camera.name, client: "viewfinder", frames: frames, interval: interval, opened: opened)
    }

    /// Runs `gphoto2 --capture-image --interval INTERVAL --frames FRAMES`, the pictures left on the card.
    static func gphoto2(on camera: BenchCamera, frames: Int, interval: Int) async throws -> Figures {
        let before = camera.exposureCount
        try await camera.runGphoto2(["--capture-image", "--interval", "\(interval)", "--frames", "\(frames)"])
        let opened = camera.exposures(after: before).map(\.opened)
        return Figures(camera: camera.name, client: "gphoto2", frames: frames, interval: interval, opened: opened)
    }
}
