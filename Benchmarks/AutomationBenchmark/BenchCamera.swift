import BenchmarkSupport
import ViewfinderCameras
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

/// A simulated Canon or Nikon on a free loopback port, which Viewfinder and gphoto2 take turns to drive (the camera
/// admits one session at a time), and which says when its shutter opened and for how long.
final class BenchCamera: Sendable {
    let identity: CameraSimulator.Identity
    let simulator: CameraSimulator
    /// gphoto2's HOME, so that it reads and writes no settings of the user's.
    let home: String
    /// When the camera had each picture it took: on its card, and reported to the client.
    private let pictureInstants = Locked<[ContinuousClock.Instant]>([])

    /// Starts the simulated camera.
    init(_ identity: CameraSimulator.Identity, home: String) throws {
        self.identity = identity
        self.home = home
        var configuration = CameraSimulator.Configuration(identity: identity, port: 0, sampleImageCount: 0)
        // The simulator says in its log when a picture is on its card and reported.
        configuration.log = { [pictureInstants] line in
            if line.hasPrefix("captured ") { pictureInstants.withLock { $0.append(.now) } }
        }
        simulator = try CameraSimulator(configuration: configuration)
        try simulator.start()
    }

    /// When the camera had the first picture it took after `instant`, if it has one.
    func pictureInstant(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        pictureInstants.withLock { $0.first { $0 > instant } }
    }

    /// The camera's name in the figures.
    var name: String { identity == .canon ? "Canon" : "Nikon" }

    /// Stops the simulated camera.
    func stop() async {
        await simulator.stopOffThePool()
    }

    /// How many exposures the camera has made so far.
    var exposureCount: Int { simulator.exposures.count }

    /// The exposures the camera made after its first `count`: when its shutter opened and how long it stayed open.
    func exposures(after count: Int) -> [(opened: ContinuousClock.Instant, length: Duration)] {
        Array(simulator.exposures.dropFirst(count))
    }

    /// Finds and connects to the camera through Viewfinder's public API, as a program would, runs `body` with it and
    /// disconnects.
    func withViewfinder<Result>(_ body: (any Camera) async throws -> Result) async throws -> Result {
        let camera = try await CameraDiscovery.shared.manualDiscovery.discover(
            .cameraType(identity == .canon ? .canon : .nikon, atAddress: "127.0.0.1", port: simulator.port))
        try await camera.connect()
        do {
            let result = try await body(camera)
            try await camera.disconnect()
            return result
        } catch {
            try? await camera.disconnect()
            throw error
        }
    }

    /// gphoto2's command line for this camera, with `arguments` after the port and model.
    func gphoto2(_ arguments: [String]) -> [String] {
        let model = identity == .canon ? "Canon EOS (WLAN)" : "Nikon DSLR (WLAN)"
        let port = simulator.port
        return ["gphoto2", "--port", "ptpip:127.0.0.1:\(port):\(port)", "--camera", model] + arguments
    }

    /// Runs gphoto2 with `arguments` to its end.
    ///
    /// - Throws: ``BenchmarkFailure`` when gphoto2 fails or prints an error (it can exit 0 after one).
    func runGphoto2(_ arguments: [String]) async throws {
        let result = try await ChildProcess.run(gphoto2(arguments), environment: ["HOME": home])
        guard result.status == 0, !result.standardOutput.contains("*** Error") else {
            throw BenchmarkFailure(
                "gphoto2 \(arguments.joined(separator: " ")) failed on the simulated \(name): \(result)")
        }
    }
}
