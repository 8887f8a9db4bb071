import BenchmarkSupport
import Foundation
import ViewfinderCameras
import ViewfinderSystem
import ViewfinderTestSupport

/// Tethered shooting by Viewfinder's `Tethering` and by `gphoto2 --capture-tethered` on the same simulated camera,
/// whose own shutter button takes each picture: the time from the press to the whole file on disk.
///
/// A file is whole on disk when it has its name and all its bytes: Viewfinder writes a partial file and renames it,
/// gphoto2 writes the file under its name. The inode's change time (ctime), which the last write and the rename both
/// set, is that moment for either; the press is timed by the same coarse real-time clock the kernel stamps files
/// with.
enum TetherBenchmark {
    /// One client's tethered shots on one camera.
    struct Figures: Codable {
        var camera: String
        var client: String
        /// From each press to its whole file on disk, in milliseconds.
        var latenciesMilliseconds: [Double]
        var medianMilliseconds: Double
        var maxMilliseconds: Double

        init(camera: String, client: String, latencies: [Double]) {
            self.camera = camera
            self.client = client
            latenciesMilliseconds = latencies
            medianMilliseconds = median(latencies)
            maxMilliseconds = latencies.max() ?? 0
        }
    }

    /// Tethers with Viewfinder's `Tethering` into a new directory in `scratch`, and presses the camera's button
    /// `shots` times once it waits.
    static func viewfinder(on camera: BenchCamera, shots: Int, scratch: String) async throws -> Figures {
        let directory = try newDirectory(in: scratch, named: "viewfinder-\(camera.name)")
        let latencies = try await camera.withViewfinder { connected in
            let run = Tethering(directory: directory, maximumFiles: shots).start(on: connected)
            let waits = Locked(0)
            let reader = Task {
                for try await event in run.events {
                    if case .waiting = event { waits.withLock { $0 += 1 } }
                }
            }
            do {
                try await waitUntil("Viewfinder's tethering to wait for a file") { waits.withLock { $0 } > 0 }
                let latencies = try await press(camera, shots: shots, savingInto: directory)
                try await reader.value
                return latencies
            } catch {
                run.cancel()
                reader.cancel()
                throw error
            }
        }
        return Figures(camera: camera.name, client: "viewfinder", latencies: latencies)
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
        let latencies: [Double]
        do {
            latencies = try await press(camera, shots: shots, savingInto: directory)
        } catch {
            process.signal(SIGKILL)
            let result = await process.finish(timeout: .seconds(10))
            throw BenchmarkFailure("\(error)\ngphoto2 --capture-tethered: \(result)")
        }
        process.interrupt()
        _ = await process.finish(timeout: .seconds(10))
        return Figures(camera: camera.name, client: "gphoto2", latencies: latencies)
    }

    /// Presses the camera's own shutter button `shots` times, each once the file of the one before is in `directory`
    /// and a photographer's moment later, and returns each press's time to its whole file on disk in milliseconds.
    ///
    /// The moment is random, 200 to 600 ms, so that the presses fall anywhere between a client's polls of the camera
    /// rather than at the same point of each.
    private static func press(_ camera: BenchCamera, shots: Int, savingInto directory: String) async throws
        -> [Double]
    {
        var presses: [Double] = []
        for shot in 1...shots {
            presses.append(coarseNow())
            try camera.simulator.pressShutterButton()
            try await waitUntil("file \(shot) in \(directory)", checks: 15_000) {
                try pictures(in: directory).count >= shot
            }
            try await Task.sleep(for: .milliseconds(Int.random(in: 200...600)))
        }
        let stamps = try pictures(in: directory).map { try changeTime(of: directory + "/" + $0) }.sorted()
        guard stamps.count == shots else {
            throw BenchmarkFailure("\(stamps.count) files in \(directory) after \(shots) presses")
        }
        return zip(presses, stamps).map { ($1 - $0) * 1000 }
    }

    /// The pictures saved in `directory`, without partial files.
    private static func pictures(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter {
            $0.uppercased().hasSuffix(".JPG")
        }
    }

    private static func newDirectory(in scratch: String, named name: String) throws -> String {
        let path = scratch + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The real time now in seconds since 1970, from the coarse clock the kernel stamps files with.
    private static func coarseNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The change time of the file at `path` in seconds since 1970: its last write, or its rename into place.
    private static func changeTime(of path: String) throws -> Double {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw BenchmarkFailure("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        return Double(status.st_ctim.tv_sec) + Double(status.st_ctim.tv_nsec) / 1e9
    }
}
