import BenchmarkSupport
import ViewfinderCameras
import ViewfinderSystem
import ViewfinderTestSupport

/// Bulb exposures of set lengths, held by Viewfinder and by gphoto2 on the same simulated camera: the length asked
/// against the length the camera's shutter stayed open.
enum BulbBenchmark {
    /// One client's exposures on one camera.
    struct Figures: Codable {
        var camera: String
        var client: String
        var askedSeconds: [Double]
        /// How long the shutter stayed open for each, in seconds.
        var seenSeconds: [Double]
        /// The mean and the largest of the errors' sizes (seen less asked), in milliseconds.
        var meanErrorMilliseconds: Double
        var maxErrorMilliseconds: Double

        init(camera: String, client: String, asked: [Int], seen: [Duration]) {
            self.camera = camera
            self.client = client
            askedSeconds = asked.map(Double.init)
            seenSeconds = seen.map(\.inSeconds)
            let errors = zip(seenSeconds, askedSeconds).map { abs($0 - $1) * 1000 }
            meanErrorMilliseconds = mean(errors)
            maxErrorMilliseconds = errors.max() ?? 0
        }
    }

    /// Holds the shutter for each of `lengths` (seconds) with Viewfinder's `engageShutter()` and
    /// `disengageShutter()`, as `viewfinder camera shoot --hold` does, and returns the lengths the camera saw.
    static func viewfinder(on camera: BenchCamera, lengths: [Int]) async throws -> Figures {
        let seen = try await camera.withViewfinder { connected in
            if camera.identity == .nikon {
                // A Nikon holds its shutter open only at bulb; gphoto2's bulb=1 sets it each time.
                let shutter = connected.property(for: .shutterSpeed)
                try await waitUntil("bulb among the Nikon's shutter speeds") {
                    shutter.validSettableValues.contains { $0.commonValue == .bulb }
                }
                try await shutter.setValue(.bulb)
            }
            var seen: [Duration] = []
            for length in lengths {
                let before = camera.exposureCount
                try await connected.engageShutter()
                try await Task.sleep(for: .seconds(length))
                try await connected.disengageShutter()
                seen.append(try exposure(of: camera, after: before, asked: length))
            }
            return seen
        }
        return Figures(camera: camera.name, client: "viewfinder", asked: lengths, seen: seen)
    }

    /// Holds the shutter for each of `lengths` (seconds) with gphoto2, a process each: the Canon's
    /// `eosremoterelease=Press Full`, events for that long, `Release Full`; the Nikon's `bulb=1`, events, `bulb=0`.
    static func gphoto2(on camera: BenchCamera, lengths: [Int]) async throws -> Figures {
        let (press, release) =
            camera.identity == .canon
            ? ("eosremoterelease=Press Full", "eosremoterelease=Release Full") : ("bulb=1", "bulb=0")
        var seen: [Duration] = []
        for length in lengths {
            let before = camera.exposureCount
            try await camera.runGphoto2([
                "--set-config", press, "--wait-event=\(length)s", "--set-config", release, "--wait-event=1s",
            ])
            seen.append(try exposure(of: camera, after: before, asked: length))
        }
        return Figures(camera: camera.name, client: "gphoto2", asked: lengths, seen: seen)
    }

    /// The length of the one exposure the camera made after its first `count`.
    private static func exposure(of camera: BenchCamera, after count: Int, asked: Int) throws -> Duration {
        let made = camera.exposures(after: count)
        guard made.count == 1, let length = made.first?.length else {
            throw BenchmarkFailure("a \(asked) s bulb exposure on the simulated \(camera.name) made \(made.count)")
        }
        return length
    }
}
