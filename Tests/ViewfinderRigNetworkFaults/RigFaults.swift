import Foundation
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The network, the broker and the agents the faults are made on, and the checks made after each.
final class RigFaults: @unchecked Sendable {
    // Unchecked: driven by the program's one task.
    let bridge: NetworkNamespacePair.Bridge
    let broker: MosquittoBroker
    let tool = BuiltProduct.path(of: "viewfinder")
    let work = String(cString: mkdtemp(strdup("/tmp/rig-network-faults.XXXXXX")))
    /// The agents' keep-alive, in seconds.
    let keepAlive = 5
    var agents: [ChildProcess?]
    private var failures = 0

    private init(bridge: NetworkNamespacePair.Bridge, broker: MosquittoBroker, hosts: Int) {
        self.bridge = bridge
        self.broker = broker
        agents = Array(repeating: nil, count: hosts)
    }

    static func make(hosts: Int) async throws -> RigFaults {
        let bridge = try await NetworkNamespacePair.Bridge.make(hosts: hosts)
        var options = MosquittoBroker.Options()
        options.address = bridge.hubAddress
        options.port = 1883
        options.namespace = bridge.hub
        let brokerOptions = options
        let broker = try await offThePool { try MosquittoBroker(brokerOptions) }
        let faults = RigFaults(bridge: bridge, broker: broker, hosts: hosts)
        for index in 0..<hosts { try faults.startAgent(index) }
        for index in 0..<hosts { try faults.waitForAgent(index, toSay: "connected to mqtt://") }
        return faults
    }

    /// Runs every fault (or those named in `only`), then removes the network; returns whether every check was met.
    func runAll(only: Set<String>) async -> Bool {
        say(
            "A rig of \(agents.count) hosts × 2 simulated cameras, keep-alive \(keepAlive) s, on a bridge of network namespaces"
        )
        for (key, name, fault) in [
            ("kill", "an agent killed mid-take", killMidTake), ("cut", "a host's link cut", cutLink),
            ("restart", "the broker restarted mid-take", restartBroker),
            ("loss", "5 % of the packets to the broker dropped", dropPackets),
        ] as [(String, String, () async throws -> Void)] where only.isEmpty || only.contains(key) {
            say("\n\(name)")
            do {
                try await fault()
            } catch {
                check(false, "ran to its end: \(error)")
            }
        }
        for agent in agents.compactMap({ $0 }) {
            agent.interrupt()
            _ = await agent.finish(timeout: .seconds(10))
        }
        await offThePool { self.broker.stop() }
        await bridge.remove()
        _ = try? ChildProcess.run("rm", ["-rf", work], timeout: .seconds(60))
        say(failures == 0 ? "\nevery check met" : "\n\(failures) checks NOT MET")
        return failures == 0
    }

    // MARK: - The faults

    /// h3's agent is killed once it has the fire: the coordinator reports it within 100 ms, the others finish.
    func killMidTake() async throws {
        let shoot = try coordinator([
            "rig", "shoot", "--download", "\(work)/kill", "--take", "kill-1", "--lead", "2000",
        ])
        try waitForAgent(3, toSay: "take kill-1: firing")
        agents[3]?.signal(SIGKILL)
        let killed = ContinuousClock.now
        let noticed = await offThePool {
            shoot.waitForOutput(timeout: .seconds(30)) { $0.contains("host h3 went offline") }
        }
        let latency = killed.duration(to: .now)
        check(
            noticed && latency <= .milliseconds(100),
            "h3 reported gone \(milliseconds(latency)) after its kill (≤ 100 ms)")
        let result = await shoot.finish(timeout: .seconds(120))
        let lines = result.standardOutput.split(separator: "\n")
        check(result.status == 69, "the shoot ended with 69 (some cameras failed): \(result.status)")
        check(
            lines.filter { $0.hasPrefix("h3/") && $0.contains("went offline") }.count == 2,
            "h3's two cameras failed as gone")
        checkTake("kill-1", hosts: Set(agents.indices).subtracting([3]), folder: "\(work)/kill", output: result)
        try startAgent(3)
        try waitForAgent(3, toSay: "connected to mqtt://")
    }

    /// h5's link goes down once it has a fire: it fires and keeps its pictures, the coordinator (which pings the
    /// hosts it waits for) declares it lost within one and a half keep-alives of its last word, the take ends for
    /// the others, the broker sends h5's last will, h5 is back once its link is, and its pictures are collected then.
    func cutLink() async throws {
        let watcher = try presenceWatcher()
        defer {
            watcher.signal(SIGKILL)
            _ = watcher.wait(timeout: .seconds(5))
        }
        let shoot = try coordinator(["rig", "shoot", "--download", "\(work)/cut", "--take", "cut-1", "--lead", "2000"])
        try waitForAgent(5, toSay: "take cut-1: firing")
        try await bridge.setLink(of: 5, up: false)
        let cut = ContinuousClock.now
        let lost = await offThePool {
            shoot.waitForOutput(timeout: .seconds(60)) {
                $0.contains("host h5 went silent") || $0.contains("host h5 went offline")
            }
        }
        let lostAfter = cut.duration(to: .now)
        // The coordinator looks for silent hosts every 0.5 s.
        let limit = Duration.seconds(keepAlive) * 1.5 + .milliseconds(500)
        check(
            lost && lostAfter <= limit,
            "h5 reported lost \(seconds(lostAfter)) after its link went down (≤ \(seconds(limit)))")
        let will = await offThePool {
            watcher.waitForOutput(timeout: .seconds(60)) { $0.contains(#"host/h5/state {"host":"h5","online":false"#) }
        }
        check(
            will,
            "the broker sent h5's last will \(seconds(cut.duration(to: .now))) after the cut (its own check, every 6 s)"
        )
        let result = await shoot.finish(timeout: .seconds(120))
        check(
            result.standardOutput.split(separator: "\n").filter {
                $0.hasPrefix("h5/") && ($0.contains("went silent") || $0.contains("went offline"))
            }.count == 2, "h5's cameras failed as lost, not by the deadline")
        checkTake("cut-1", hosts: Set(agents.indices), folder: "\(work)/cut", output: result)
        let before = watcher.standardOutput.count
        try await bridge.setLink(of: 5, up: true)
        let restored = ContinuousClock.now
        let back = await offThePool {
            watcher.waitForOutput(timeout: .seconds(60)) { $0.dropFirst(before).contains(#"host/h5/state {"agent""#) }
        }
        check(back, "h5 back online \(seconds(restored.duration(to: .now))) after its link came back")
        check(
            agentOutput(5).contains("connected to mqtt://\(bridge.hubAddress):1883 again"),
            "h5's agent says it reconnected")
        let collect = try coordinator(["rig", "collect", "--take", "cut-1", "--download", "\(work)/cut"])
        let collected = await collect.finish(timeout: .seconds(120))
        check(
            collected.status == 0, "every picture of take cut-1 collected once h5 was back: status \(collected.status)")
        checkTake("cut-1", hosts: Set(agents.indices), folder: "\(work)/cut", output: collected)
    }

    /// The broker is killed and started again while the hosts fire: everyone reconnects, the coordinator asks again,
    /// and every host answers from its record of the fire, which fired once.
    func restartBroker() async throws {
        let shoot = try coordinator([
            "rig", "shoot", "--download", "\(work)/restart", "--take", "restart-1", "--lead", "2000",
        ])
        for index in agents.indices { try waitForAgent(index, toSay: "take restart-1: firing") }
        try await offThePool { try self.broker.restart() }
        let result = await shoot.finish(timeout: .seconds(120))
        check(result.status == 0, "the shoot ended with every camera: status \(result.status)\n\(result.output)")
        checkTake("restart-1", hosts: Set(agents.indices), folder: "\(work)/restart", output: result)
        check(
            agents.indices.allSatisfy {
                agentOutput($0).contains("connected to mqtt://\(bridge.hubAddress):1883 again")
            },
            "every agent says it reconnected")
        check(result.output.contains("connected to the broker"), "the coordinator says it reconnected")
    }

    /// 5 % of the TCP packets to and from the broker are dropped on every host (nftables): ten takes.
    func dropPackets() async throws {
        let rules = """
            table inet vfloss {
                chain out { type filter hook output priority 0; tcp dport 1883 numgen random mod 100 < 5 drop; }
                chain in { type filter hook input priority 0; tcp sport 1883 numgen random mod 100 < 5 drop; }
            }
            """
        try rules.write(toFile: "\(work)/loss.nft", atomically: true, encoding: .utf8)
        for host in bridge.hosts {
            let added = try ChildProcess.run(
                "ip", ["netns", "exec", host, "nft", "-f", "\(work)/loss.nft"], mergingErrors: true)
            guard added.status == 0 else { throw TestFailure("nft failed: \(added)") }
        }
        defer {
            for host in bridge.hosts {
                _ = try? ChildProcess.run("ip", ["netns", "exec", host, "nft", "delete", "table", "inet", "vfloss"])
            }
        }
        var saved = 0
        var late = 0
        var other = 0
        var reasons: Set<String> = []
        for number in 1...10 {
            let take = "loss-\(number)"
            let shoot = try coordinator([
                "rig", "shoot", "--download", "\(work)/\(take)", "--take", take, "--lead", "1000",
            ])
            let result = await shoot.finish(timeout: .seconds(120))
            let lines = result.standardOutput.split(separator: "\n").filter { $0.contains("/cam") }
            saved += lines.filter { $0.contains(" saved ") }.count
            late += lines.filter { $0.contains("too late") }.count
            let failed = lines.filter { !$0.contains(" saved ") && !$0.contains("too late") }
            other += failed.count
            reasons.formUnion(failed.map { String($0.drop { $0 != " " }.prefix(200)) })
            let fired = Set(
                agents.indices.filter { index in
                    !((try? FileManager.default.contentsOfDirectory(atPath: "\(work)/h\(index)/\(take)")) ?? []).isEmpty
                })
            checkTake(take, hosts: fired, folder: "\(work)/\(take)", output: result, quiet: true)
        }
        say("  \(saved) cameras saved, \(late) on hosts the fire reached too late (not fired), \(other) other failures")
        for reason in reasons.prefix(5) { say("    \(reason)") }
        check(saved + late == 10 * agents.count * 2 && other == 0, "every camera either saved whole or reported late")
        check(saved >= 10 * agents.count, "most of the pictures taken despite the loss")
    }

    // MARK: - Checks

    /// Checks a take: every host of `hosts` fired it once (one log line, two files it keeps), and every file the
    /// coordinator saved is whole (the same bytes as the host's); no other host keeps a picture of it.
    func checkTake(_ take: String, hosts: Set<Int>, folder: String, output: ChildProcess.Result, quiet: Bool = false) {
        var problems: [String] = []
        for index in agents.indices {
            let kept = ((try? FileManager.default.contentsOfDirectory(atPath: "\(work)/h\(index)/\(take)")) ?? [])
                .sorted()
            let firings = agentOutput(index).components(separatedBy: "take \(take): firing").count - 1
            if hosts.contains(index) {
                if firings != 1 || kept.count != 2 {
                    problems.append("h\(index) fired \(firings) times and keeps \(kept.count) files")
                }
                for name in kept {
                    let original = FileManager.default.contents(atPath: "\(work)/h\(index)/\(take)/\(name)")
                    let fetched = FileManager.default.contents(atPath: "\(folder)/h\(index)/\(name)")
                    if output.status == 0 || fetched != nil, fetched != original {
                        problems.append("\(folder)/h\(index)/\(name) is not the host's file")
                    }
                }
            } else if !kept.isEmpty || firings > 1 {
                problems.append("h\(index) fired \(firings) times and keeps \(kept.count) files")
            }
        }
        let partial = (FileManager.default.subpaths(atPath: folder) ?? []).filter { $0.hasSuffix(".part") }
        if !partial.isEmpty { problems.append("partial files left: \(partial)") }
        if !quiet || !problems.isEmpty {
            check(
                problems.isEmpty,
                "take \(take) fired once per host, every picture whole" + (problems.isEmpty ? "" : ": \(problems)"))
        }
    }

    func check(_ met: Bool, _ text: String) {
        if !met { failures += 1 }
        say("  \(met ? "met    " : "NOT MET") \(text)")
    }

    // MARK: - Processes

    func startAgent(_ index: Int) throws {
        agents[index] = try ChildProcess(
            "ip",
            [
                "netns", "exec", bridge.hosts[index], tool, "rig", "agent", "--broker",
                "mqtt://\(bridge.hubAddress):1883",
                "--name", "h\(index)", "--simulated", "2", "--keepalive", "\(keepAlive)", "--storage",
                "\(work)/h\(index)",
            ], mergingErrors: true)
    }

    func waitForAgent(_ index: Int, toSay text: String) throws {
        guard let agent = agents[index], agent.waitForOutput(timeout: .seconds(60), until: { $0.contains(text) }) else {
            throw TestFailure("h\(index) never said '\(text)':\n\(agentOutput(index))")
        }
    }

    func agentOutput(_ index: Int) -> String {
        _ = agents[index]?.waitForOutput(timeout: .milliseconds(60)) { _ in false }
        return agents[index]?.standardOutput ?? ""
    }

    /// Starts the tool as the coordinator in the hub, its errors (where it says who comes and goes) kept apart.
    func coordinator(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(
            "ip", ["netns", "exec", bridge.hub, tool] + arguments + ["--broker", "mqtt://\(bridge.hubAddress):1883"],
            mergingErrors: true)
    }

    /// mosquitto_sub printing every host record as it arrives.
    func presenceWatcher() throws -> ChildProcess {
        let watcher = try ChildProcess(
            "ip",
            [
                "netns", "exec", bridge.hub, "mosquitto_sub", "-h", bridge.hubAddress, "-V", "mqttv5", "-v", "-t",
                "vf/default/host/+/state",
            ],
            mergingErrors: true)
        guard watcher.waitForOutput(timeout: .seconds(10), until: { $0.contains("host/h0/state") }) else {
            throw TestFailure("mosquitto_sub heard no record: \(watcher.standardOutput)")
        }
        return watcher
    }

    func milliseconds(_ duration: Duration) -> String {
        String(
            format: "%.1f ms",
            Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
    }

    func seconds(_ duration: Duration) -> String {
        String(format: "%.2f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}
