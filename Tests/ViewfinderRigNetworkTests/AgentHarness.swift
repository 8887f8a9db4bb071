import Foundation
import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP
import ViewfinderRig
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderRigNetwork

/// A mosquitto of the test's own on loopback, agents in this process (hosts `h0`, `h1`, …), each with simulated
/// cameras `cam0`, `cam1`, …, and a folder for their takes and the coordinator's downloads.
final class AgentHarness: @unchecked Sendable {
    // Unchecked: a harness is driven by one test at a time.
    let broker: MosquittoBroker
    let folder: String
    private(set) var agents: [RigAgent] = []
    private(set) var simulators: [[CameraSimulator]] = []
    let logs = Locked<[String]>([])
    private var coordinators: [NetworkRig] = []

    private init(broker: MosquittoBroker, folder: String) {
        self.broker = broker
        self.folder = folder
    }

    /// Changes host `index`'s agent configuration before it starts.
    typealias Configure = (inout RigAgent.Configuration, _ index: Int) -> Void

    /// Starts a broker and `hosts` agents of `cameras` cameras each, runs `body`, and tears it all down.
    static func run<Result>(
        hosts: Int, cameras: Int, broker options: MosquittoBroker.Options = .init(),
        configure: @escaping Configure = { _, _ in },
        _ body: (AgentHarness) async throws -> Result
    ) async throws -> Result {
        let broker = try await offThePool { try MosquittoBroker(options) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vf-rig-net-\(UUID())").path
        let harness = AgentHarness(broker: broker, folder: folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            for index in 0..<hosts {
                try await harness.addHost(index, cameras: cameras, configure: configure)
            }
            let result = try await body(harness)
            await harness.tearDown()
            return result
        } catch {
            await harness.tearDown()
            throw error
        }
    }

    /// Starts host `index` with its simulated cameras, connected, and its agent.
    private func addHost(
        _ index: Int, cameras: Int, configure: Configure
    ) async throws {
        var own: [CameraSimulator] = []
        for _ in 0..<cameras {
            let simulator = try CameraSimulator(configuration: .init(port: 0, sampleImageCount: 0))
            try simulator.start()
            own.append(simulator)
        }
        simulators.append(own)
        let rig = try CameraRig(
            members: own.enumerated().map { number, simulator in
                var transport = PTPIPTransport.Configuration()
                transport.port = simulator.port
                transport.clientName = "rig-network-tests"
                return RigMember(name: "cam\(number)", camera: PTPCamera(host: "127.0.0.1", transport: transport))
            })
        // Generous: a sanitized run beside other work took more than 30 s for every test at once.
        let connected = await rig.connect(timeout: .seconds(90))
        guard connected.allSucceeded else { throw TestFailure("cameras did not connect: \(connected.failures)") }
        var configuration = RigAgent.Configuration(
            broker: try brokerConfiguration(), host: "h\(index)", storage: "\(folder)/h\(index)")
        configuration.filesBindAddress = "127.0.0.1"
        configuration.log = { [logs] line in logs.withLock { $0.append("h\(index): \(line)") } }
        configure(&configuration, index)
        let agent = try RigAgent(rig: rig, configuration: configuration)
        try agent.start()
        agents.append(agent)
    }

    /// The broker as agents and coordinators reach it, with the CA of a TLS broker.
    func brokerConfiguration() throws -> RigBroker {
        var broker = try RigBroker(url: self.broker.url)
        if self.broker.options.tls {
            broker.tls = RigBroker.TLS(certificateAuthorityFile: self.broker.certificateAuthorityFile)
        }
        return broker
    }

    /// A coordinator connected to the broker, once every host is online.
    func coordinator(configure: (inout NetworkRig.Configuration) -> Void = { _ in }) async throws -> NetworkRig {
        var configuration = NetworkRig.Configuration(broker: try brokerConfiguration())
        configuration.log = { [logs] line in logs.withLock { $0.append("coordinator: \(line)") } }
        configure(&configuration)
        let rig = try NetworkRig(configuration: configuration)
        coordinators.append(rig)
        try await rig.connect(timeout: .seconds(30))
        let online = await rig.waitForHosts(count: agents.count, timeout: .seconds(30))
        guard online.count == agents.count else {
            throw TestFailure("\(online.count) of \(agents.count) hosts came online:\n\(log)")
        }
        return rig
    }

    /// The newest picture on each camera of host `index`'s card, as the simulators keep them.
    func newestPictures(of index: Int) -> [[UInt8]?] {
        simulators[index].map { simulator in simulator.objectHandles.max().flatMap(simulator.objectData) }
    }

    /// How many pictures each camera of host `index` has taken.
    func pictureCounts(of index: Int) -> [Int] {
        simulators[index].map(\.objectHandles.count)
    }

    /// Every line the agents and coordinators logged.
    var log: String { logs.withLock { $0.joined(separator: "\n") } }

    private func tearDown() async {
        for coordinator in coordinators { await offThePool { coordinator.disconnect() } }
        for agent in agents {
            await offThePool { agent.stop() }
            await agent.rig.disconnect()
        }
        for simulator in simulators.joined() { await simulator.stopOffThePool() }
        await offThePool { [broker] in broker.stop() }
    }
}
