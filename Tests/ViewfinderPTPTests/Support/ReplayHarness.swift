import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// A real camera's gphoto2 debug log played back by a simulator on a free loopback port, and a ``PTPCamera``
/// connected to it over PTP/IP.
///
/// The logs are in `Traces/`, each with its source on its first line.
struct ReplayHarness {
    let simulator: CameraSimulator
    let camera: PTPCamera
    let recording: RecordedCamera

    /// Where the traces are.
    static let traces = String(#filePath.dropLast("Support/ReplayHarness.swift".count)) + "Traces/"

    /// Every trace, by file name.
    static let allTraces = [
        "canon-eos60d-libgphoto2-cameras.log", "canon-eos5dmark3-libgphoto2-cameras.log",
        "canon-eos-m50-libgphoto2-cameras.log", "canon-powershot-g5x-libgphoto2-cameras.log",
        "nikon-z8-ptpip-libgphoto2-1135.log", "nikon-z6-libgphoto2-cameras.log", "nikon-d780-libgphoto2-cameras.log",
        "samsung-nx01-libgphoto2-cameras.log",
        "sony-a7sm3-libgphoto2-cameras.log",
    ]

    /// Reads a trace.
    static func recording(_ trace: String) throws -> RecordedCamera {
        try RecordedCamera(gphotoDebugLogAtPath: traces + trace)
    }

    /// Plays `trace` back, connects a camera to it, runs `body`, and tears everything down.
    static func run<Result>(
        _ trace: String, camera configuration: PTPCamera.Configuration = PTPCamera.Configuration(),
        _ body: (ReplayHarness) async throws -> Result
    ) async throws -> Result {
        try await run(recording: try recording(trace), camera: configuration, body)
    }

    /// Plays `recording` back, such as a trace with a transaction left out, connects a camera to it, runs `body`, and
    /// tears everything down.
    static func run<Result>(
        recording: RecordedCamera, camera configuration: PTPCamera.Configuration = PTPCamera.Configuration(),
        _ body: (ReplayHarness) async throws -> Result
    ) async throws -> Result {
        let simulator = try CameraSimulator(
            replaying: recording, configuration: CameraSimulator.Configuration(port: 0))
        try simulator.start()
        var transport = PTPIPTransport.Configuration()
        transport.port = simulator.port
        transport.clientName = "tests"
        let camera = PTPCamera(host: "127.0.0.1", transport: transport, configuration: configuration)
        do {
            try await camera.connect()
            let result = try await body(ReplayHarness(simulator: simulator, camera: camera, recording: recording))
            try await camera.disconnect()
            await simulator.stopOffThePool()
            return result
        } catch {
            try? await camera.disconnect()
            await simulator.stopOffThePool()
            throw error
        }
    }

    /// The display value of a property, or `nil` without one.
    func shown<Value>(_ identifier: CameraPropertyIdentifier<Value>) -> String? {
        camera.property(for: identifier).currentValue?.localizedDisplayValue
    }
}
