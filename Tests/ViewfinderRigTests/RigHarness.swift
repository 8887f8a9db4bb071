import Foundation
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderRig
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

/// Simulated cameras on free loopback ports, a rig of `PTPCamera`s pointed at them, and a folder for pictures.
final class RigHarness: Sendable {
    let simulators: Locked<[CameraSimulator]>
    let rig: CameraRig
    let directory: String

    var simulator: [CameraSimulator] { simulators.withLock { $0 } }

    private init(simulators: [CameraSimulator], rig: CameraRig, directory: String) {
        self.simulators = Locked(simulators)
        self.rig = rig
        self.directory = directory
    }

    /// Starts `count` simulators, makes a rig of cameras named `cam0`, `cam1`, …, runs `body`, and tears it all down.
    static func run<Result>(
        count: Int, configuration: CameraSimulator.Configuration = .init(sampleImageCount: 0),
        _ body: (RigHarness) async throws -> Result
    ) async throws -> Result {
        var configuration = configuration
        configuration.port = 0
        var simulators: [CameraSimulator] = []
        var members: [RigMember] = []
        for index in 0..<count {
            let simulator = try CameraSimulator(configuration: configuration)
            try simulator.start()
            simulators.append(simulator)
            var transport = PTPIPTransport.Configuration()
            transport.port = simulator.port
            transport.clientName = "rig-tests"
            members.append(RigMember(name: "cam\(index)", camera: PTPCamera(host: "127.0.0.1", transport: transport)))
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vf-rig-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let harness = RigHarness(simulators: simulators, rig: try CameraRig(members: members), directory: directory)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        do {
            let result = try await body(harness)
            await harness.tearDown()
            return result
        } catch {
            await harness.tearDown()
            throw error
        }
    }

    /// Replaces simulator `index` with a new one on the same port, as a camera switched back on.
    func restart(_ index: Int, configuration: CameraSimulator.Configuration = .init(sampleImageCount: 0)) throws {
        var configuration = configuration
        configuration.port = simulator[index].port
        let replacement = try CameraSimulator(configuration: configuration)
        try replacement.start()
        simulators.withLock { $0[index] = replacement }
    }

    private func tearDown() async {
        await rig.disconnect()
        for simulator in simulator {
            await simulator.stopOffThePool()
        }
    }
}
