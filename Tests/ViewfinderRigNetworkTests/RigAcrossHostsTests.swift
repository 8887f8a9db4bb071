import Foundation
import Testing
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The tool as a rig of many hosts: a mosquitto and the coordinator in a "switch" namespace with a bridge, an agent
/// (`viewfinder rig agent --simulated 2`) in each host's namespace, and an independent coordinator (paho-mqtt) that
/// reads the records and fires a take from the documented message format alone.
@Suite(.serialized, .timeLimit(.minutes(5))) struct RigAcrossHostsTests {
    static let peers = String(#filePath.dropLast("RigAcrossHostsTests.swift".count)) + "Peers/"
    static let hostCount = 3

    /// One JSON record of `rig shoot --json`.
    struct Record: Decodable {
        var camera: String
        var address: String
        var ok: Bool
        var error: String?
        var errorCode: String?
        var files: [String]?
    }

    @Test func anIndependentClientAndTheToolFireTakesAndAKilledHostIsLostWhileTheOthersFinish() async throws {
        try await RigNetwork.run(hosts: Self.hostCount) { network in
            // paho-mqtt: every record, one answer per host to a fire sent twice, every file whole.
            let peer = try await network.run(
                inHub: [
                    "/usr/bin/python3", Self.peers + "rig-peer.py", network.bridge.hubAddress, "1883", "default",
                    "\(Self.hostCount)", network.folder,
                ],
                timeout: .seconds(120))
            #expect(peer.status == 0, "\(peer)\n\(network.agentOutput)")
            let summary = try JSONSerialization.jsonObject(with: Data(peer.standardOutput.utf8)) as? [String: Any]
            let hosts = summary?["hosts"] as? [String: [String: Any]]
            #expect(hosts?.keys.sorted() == ["h0", "h1", "h2"], "\(peer)")
            #expect(hosts?["h1"]?["cameras"] as? [String] == ["cam0", "cam1"], "\(peer)")
            #expect((hosts?["h0"]?["agent"] as? String)?.hasPrefix("viewfinder ") == true, "\(peer)")
            #expect(summary?["answers"] as? [String: String] == ["h0": "ok", "h1": "ok", "h2": "ok"], "\(peer)")
            #expect(summary?["answer_copies"] as? Int == Self.hostCount, "a fire sent twice was answered twice")
            #expect(summary?["verified_files"] as? Int == Self.hostCount * 2, "\(peer)")
            #expect(summary?["fired_after_instant"] as? Bool == true, "\(peer)")
            for index in 0..<Self.hostCount {
                #expect(network.agentOutput(index).contains("fire paho-fire-1 came again while it runs"))
            }

            // The tool as coordinator.
            let hostsList = try await network.tool(["rig", "hosts", "--json", "--wait-for", "\(Self.hostCount)"])
            #expect(hostsList.status == 0, "\(hostsList)")
            #expect(hostsList.standardOutput.components(separatedBy: "\"online\" : true").count == Self.hostCount + 1)
            let shot = try await network.tool(["rig", "shoot", "--download", network.folder + "/tool", "--json"])
            #expect(shot.status == 0, "\(shot)\n\(network.agentOutput)")
            let records = try JSONDecoder().decode([Record].self, from: Data(shot.standardOutput.utf8))
            #expect(records.map(\.camera) == ["h0/cam0", "h0/cam1", "h1/cam0", "h1/cam1", "h2/cam0", "h2/cam1"])
            for record in records {
                let path = try #require(record.files?.first, "\(record)")
                #expect(path.hasPrefix("\(network.folder)/tool/\(record.address)/"), "\(path)")
                let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
                #expect(size > 1000, "\(path)")
            }

            // h2's agent is killed once it has the fire: it is reported lost, the others finish.
            let shoot = try network.startTool(
                ["rig", "shoot", "--download", network.folder + "/lost", "--lead", "3000", "--take", "lost", "--json"])
            let fired = await offThePool {
                network.agents[2].waitForOutput(timeout: .seconds(60)) { $0.contains("take lost: firing") }
            }
            #expect(fired, "\(network.agentOutput)")
            network.agents[2].signal(SIGKILL)
            let partial = await shoot.finish(timeout: .seconds(120))
            #expect(partial.status == 69, "\(partial)")
            let after = try JSONDecoder().decode([Record].self, from: Data(partial.standardOutput.utf8))
            for record in after {
                if record.address == "h2" {
                    #expect(!record.ok)
                    #expect(record.errorCode == "disconnected", "\(record)")
                    #expect(record.error?.contains("went offline") == true, "\(record)")
                } else {
                    #expect(record.ok, "\(record)")
                }
            }
            #expect(after.count == 6)
            #expect(partial.standardError.contains("host h2 went offline"), "\(partial)")
        }
    }
}

/// A bridge of hosts, a mosquitto in its hub, and an agent with two simulated cameras in each host.
final class RigNetwork: @unchecked Sendable {
    // Unchecked: driven by one test at a time.
    let bridge: NetworkNamespacePair.Bridge
    let broker: MosquittoBroker
    let agents: [ChildProcess]
    let folder: String
    let tool = BuiltProduct.path(of: "viewfinder")

    private init(bridge: NetworkNamespacePair.Bridge, broker: MosquittoBroker, agents: [ChildProcess], folder: String) {
        self.bridge = bridge
        self.broker = broker
        self.agents = agents
        self.folder = folder
    }

    /// Makes the network (or cancels the test without root), runs `body`, and removes it all.
    static func run(hosts: Int, _ body: (RigNetwork) async throws -> Void) async throws {
        guard getuid() == 0 else {
            try Test.cancel("network namespaces need root (as in CI): the rig across hosts is not checked here")
        }
        let bridge: NetworkNamespacePair.Bridge
        do {
            bridge = try await NetworkNamespacePair.Bridge.make(hosts: hosts)
        } catch {
            try Test.cancel("network namespaces cannot be made here, so the rig across hosts is not checked: \(error)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vf-rig-hosts-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var agents: [ChildProcess] = []
        do {
            var options = MosquittoBroker.Options()
            options.address = bridge.hubAddress
            options.port = 1883
            options.namespace = bridge.hub
            let brokerOptions = options
            let broker = try await offThePool { try MosquittoBroker(brokerOptions) }
            let tool = BuiltProduct.path(of: "viewfinder")
            for (index, host) in bridge.hosts.enumerated() {
                agents.append(
                    try ChildProcess(
                        "ip",
                        [
                            "netns", "exec", host, tool, "rig", "agent", "--broker", "mqtt://\(bridge.hubAddress):1883",
                            "--name", "h\(index)", "--simulated", "2", "--storage",
                            "\(folder)/h\(index)",
                        ], mergingErrors: true))
            }
            let network = RigNetwork(bridge: bridge, broker: broker, agents: agents, folder: folder)
            for (index, agent) in agents.enumerated() {
                let connected = await offThePool {
                    agent.waitForOutput(timeout: .seconds(60)) { $0.contains("connected to mqtt://") }
                }
                guard connected else { throw TestFailure("agent h\(index) did not connect:\n\(agent.standardOutput)") }
            }
            try await body(network)
            await network.tearDown()
        } catch {
            for agent in agents { agent.signal(SIGKILL) }
            await bridge.remove()
            throw error
        }
    }

    /// Runs `command` in the hub's namespace to its end.
    func run(inHub command: [String], timeout: Duration = .seconds(120)) async throws -> ChildProcess.Result {
        try await offThePool {
            try ChildProcess.run("ip", ["netns", "exec", self.bridge.hub] + command, timeout: timeout)
        }
    }

    /// Runs the tool as the rig's coordinator in the hub, with `arguments` and the broker's address.
    func tool(_ arguments: [String]) async throws -> ChildProcess.Result {
        try await run(inHub: [tool] + arguments + ["--broker", "mqtt://\(bridge.hubAddress):1883"])
    }

    /// Starts the tool as the rig's coordinator in the hub.
    func startTool(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(
            "ip", ["netns", "exec", bridge.hub, tool] + arguments + ["--broker", "mqtt://\(bridge.hubAddress):1883"])
    }

    /// What agent `index` printed so far.
    func agentOutput(_ index: Int) -> String {
        _ = agents[index].waitForOutput(timeout: .milliseconds(100)) { _ in false }
        return agents[index].standardOutput
    }

    /// What every agent printed so far.
    var agentOutput: String {
        agents.indices.map { "--- h\($0):\n\(agentOutput($0))" }.joined(separator: "\n")
    }

    private func tearDown() async {
        for agent in agents {
            agent.interrupt()
            _ = await agent.finish(timeout: .seconds(10))
        }
        await offThePool { self.broker.stop() }
        await bridge.remove()
    }
}
