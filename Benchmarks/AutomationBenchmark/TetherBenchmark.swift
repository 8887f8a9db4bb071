import BenchmarkSupport
import Foundation
import ViewfinderCameras
import ViewfinderSystem
import ViewfinderTestSupport

/// Tethered shooting by Viewfinder's `Tethering` and by `gphoto2 --capture-tethered` on the same simulated camera,
/// whose own shutter button takes each picture: the time from the press to the whole file on disk.
///
/// A file is whole on disk when it has its name and all its bytes: both write a temporary file and rename it
/// (gphoto2 then sets its mode and times), and the moment is the rename, which inotify tells a thread of the
/// benchmark's (``NameWatch``); the press and that moment are read on the same monotonic clock. (The inode's change
/// time would not do: gphoto2 changes it again after the rename, and Linux stamps it with a clock that ticks every few
/// milliseconds or, since its multigrain timestamps, a finer one, so that it cannot be set against a press read on
/// either.)
///
/// The latency holds the camera's own time to make the picture, the same work whichever client waits but as long
/// as a busy machine makes it; each shot's latency is also split at the moment the simulated camera had the picture
/// (on its card and reported), the rest being the client's: hearing of the picture, reading it and saving it.
enum TetherBenchmark {
    /// One client's tethered shots on one camera.
    struct Figures: Codable {
        var camera: String
        var client: String
        /// From each press to its whole file on disk, in milliseconds.
        var latenciesMilliseconds: [Double]
        var medianMilliseconds: Double
        var maxMilliseconds: Double
        /// From each press to the camera having its picture, in milliseconds.
        var cameraMilliseconds: [Double]
        /// From the camera having each picture to its whole file on disk, in milliseconds.
        var clientMilliseconds: [Double]
        var clientMedianMilliseconds: Double
        var clientMaxMilliseconds: Double

        init(camera: String, client: String, shots: [Shot]) {
            self.camera = camera
            self.client = client
            latenciesMilliseconds = shots.map(\.latency)
            medianMilliseconds = median(latenciesMilliseconds)
            maxMilliseconds = latenciesMilliseconds.max() ?? 0
            cameraMilliseconds = shots.map(\.camera)
            clientMilliseconds = shots.map { $0.latency - $0.camera }
            clientMedianMilliseconds = median(clientMilliseconds)
            clientMaxMilliseconds = clientMilliseconds.max() ?? 0
        }
    }

    /// One shot's times in milliseconds: from the press to the whole file on disk, and to the camera having the
    /// picture.
    struct Shot {
        var latency: Double
        var camera: Double
    }

    /// Tethers with Viewfinder's `Tethering` into a new directory in `scratch`, and presses the camera's button
    /// `shots` times once it waits.
    static func viewfinder(on camera: BenchCamera, shots: Int, scratch: String) async throws -> Figures {
        let directory = try newDirectory(in: scratch, named: "viewfinder-\(camera.name)")
        let shots = try await camera.withViewfinder { connected in
            let run = Tethering(directory: directory, maximumFiles: shots).start(on: connected)
            let waits = Locked(0)
            let reader = Task {
                for try await event in run.events {
                    if case .waiting = event { waits.withLock { $0 += 1 } }
                }
            }
            do {
                try await waitUntil("Viewfinder's tethering to wait for a file") { waits.withLock { $0 } > 0 }
                let taken = try await press(camera, shots: shots, savingInto: directory)
                try await reader.value
                return taken
            } catch {
                run.cancel()
                reader.cancel()
                throw error
            }
        }
        return Figures(camera: camera.name, client: "viewfinder", shots: shots)
    }

    /// Tethers with `gphoto2 --capture-tethered` into a new directory in `scratch`, and presses the camera's button
    /// `shots` times once it waits.
    static func gphoto2(on camera: BenchCamera, shots: Int, scratch: String) async throws -> Figures {
        let directory = try newDirectory(in: scratch, named: "gphoto2-\(camera.name)")
        // Line by line, so that its wait shows as it begins; it runs until interrupted once every file is saved.
        let command = camera.gphoto2(["--capture-tethered=600s", "--filename", directory + "/%f.%C"])
        let process = try ChildProcess(
            "stdbuf", ["-oL"] + command, environment: ["HOME": camera.home], mergingErrors: true)
        let waiting = await offThePool {
            process.waitForOutput(timeout: .seconds(30)) { $0.contains("Waiting for") }
        }
        guard waiting else {
            process.signal(SIGKILL)
            let result = await process.finish(timeout: .seconds(10))
            throw BenchmarkFailure("gphoto2 --capture-tethered did not begin waiting: \(result)")
        }
        let taken: [Shot]
        do {
            taken = try await press(camera, shots: shots, savingInto: directory)
        } catch {
            process.signal(SIGKILL)
            let result = await process.finish(timeout: .seconds(10))
            throw BenchmarkFailure("\(error)\ngphoto2 --capture-tethered: \(result)")
        }
        process.interrupt()
        _ = await process.finish(timeout: .seconds(10))
        return Figures(camera: camera.name, client: "gphoto2", shots: taken)
    }

    /// Presses the camera's own shutter button `shots` times, each once the file of the one before is in `directory`
    /// and a photographer's moment later, and returns each press's times to its whole file on disk and to the
    /// camera having the picture.
    ///
    /// The moment is random, 200 to 600 ms, so that the presses fall anywhere between a client's polls of the camera
    /// rather than at the same point of each.
    private static func press(_ camera: BenchCamera, shots: Int, savingInto directory: String) async throws
        -> [Shot]
    {
        let watch = try NameWatch(directory)
        defer { watch.stop() }
        var presses: [ContinuousClock.Instant] = []
        var cameraTimes: [Double] = []
        for shot in 1...shots {
            let pressed = ContinuousClock.now
            presses.append(pressed)
            try camera.simulator.pressShutterButton()
            try await waitUntil("file \(shot) in \(directory)", limit: .seconds(30)) {
                try pictures(in: directory).count >= shot
            }
            guard let had = camera.pictureInstant(after: pressed) else {
                throw BenchmarkFailure("the camera did not say when it had picture \(shot)")
            }
            cameraTimes.append(milliseconds(from: pressed, to: had))
            try await Task.sleep(for: .milliseconds(Int.random(in: 200...600)))
        }
        let named = watch.instants { isPicture($0) }
        guard named.count == shots, try pictures(in: directory).count == shots else {
            throw BenchmarkFailure("\(named.count) files named in \(directory) after \(shots) presses")
        }
        return zip(zip(presses, named), cameraTimes).map {
            Shot(latency: milliseconds(from: $0.0, to: $0.1), camera: $1)
        }
    }

    private static func milliseconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant) -> Double {
        start.duration(to: end).inSeconds * 1000
    }

    /// Whether `name` is a picture's, not a partial file's.
    private static func isPicture(_ name: String) -> Bool {
        name.uppercased().hasSuffix(".JPG")
    }

    /// The pictures saved in `directory`, without partial files.
    private static func pictures(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter(isPicture)
    }

    private static func newDirectory(in scratch: String, named name: String) throws -> String {
        let path = scratch + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
