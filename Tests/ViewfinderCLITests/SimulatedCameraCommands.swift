import Foundation
import Testing
import Viewfinder
import ViewfinderSimulator
import ViewfinderTestSupport

/// The tool's network-camera commands against a simulated camera, one test at a time: each test runs its own
/// simulator, and several at once would crowd out the timing-sensitive tests of other suites.
@Suite(.serialized) enum SimulatedCameraCommands {}

/// A simulated Nikon camera in this process, listening on a free loopback port, for the tool to connect to.
final class CameraUnderTest {
    let simulator: CameraSimulator

    /// Starts a simulator; `batteryDrainInterval` sets how often it reports a battery change while connected, and
    /// `formlessProperties` which properties it describes without a form.
    init(
        identity: CameraSimulator.Identity = .nikon, model: String? = nil,
        batteryDrainInterval: Duration = .seconds(60),
        formlessProperties: Set<PTPDevicePropertyCode> = [], liveViewPicture: PixelBuffer? = nil
    ) throws {
        var configuration = CameraSimulator.Configuration(
            identity: identity, model: model, port: 0, batteryDrainInterval: batteryDrainInterval)
        configuration.formlessProperties = formlessProperties
        configuration.liveViewPicture = liveViewPicture
        simulator = try CameraSimulator(configuration: configuration)
        try simulator.start()
    }

    /// The target options that point the tool at the simulator.
    var target: [String] { ["--host", "127.0.0.1:\(simulator.port)"] }

    /// Runs the tool with `arguments` and the target options.
    func run(_ arguments: String...) throws -> ChildProcess.Result {
        try Tool.run(arguments + target, timeout: .seconds(60))
    }

    /// Stops the simulator.
    func stop() {
        simulator.stop()
    }

    /// Runs `body` with a started simulator on a thread of its own, and stops the simulator afterwards.
    static func with<Result>(
        identity: CameraSimulator.Identity = .nikon, model: String? = nil,
        batteryDrainInterval: Duration = .seconds(60), formlessProperties: Set<PTPDevicePropertyCode> = [],
        liveViewPicture: PixelBuffer? = nil, _ body: (CameraUnderTest) throws -> Result
    ) async throws -> Result {
        try await onOwnThread {
            let camera = try CameraUnderTest(
                identity: identity, model: model, batteryDrainInterval: batteryDrainInterval,
                formlessProperties: formlessProperties, liveViewPicture: liveViewPicture)
            defer { camera.stop() }
            return try body(camera)
        }
    }
}

/// A directory under the system's temporary directory, removed when the test is done with it.
final class ScratchDirectory {
    let path: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "/viewfinder-cli-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("cannot make a temporary directory") }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The names of the files in the directory, sorted.
    func files(in subdirectory: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path + "/" + subdirectory).sorted()
    }

    /// The bytes of a file in the directory.
    func bytes(of name: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path + "/" + name) else {
            throw TestFailure("cannot read \(path)/\(name)")
        }
        return [UInt8](data)
    }
}

/// Checks that bytes are a JPEG image that ViewfinderImaging decodes, and returns its size.
func decodedJPEGSize(_ bytes: [UInt8]) throws -> Dimensions {
    guard JPEGCheck.dimensions(of: bytes) != nil else {
        throw TestFailure("\(bytes.count) bytes are not a whole JPEG image (SOI, segments, EOI)")
    }
    let image = try JPEGDecoder().decode(bytes, to: .i420)
    return Dimensions(width: image.width, height: image.height)
}

/// Decodes the JSON a command printed.
func decodeJSON<Value: Decodable>(_ type: Value.Type, from result: ChildProcess.Result) throws -> Value {
    try JSONDecoder().decode(type, from: Data(result.standardOutput.utf8))
}
