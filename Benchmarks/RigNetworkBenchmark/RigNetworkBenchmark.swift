import BenchmarkSupport
import Foundation
import ViewfinderRig
import ViewfinderRigNetwork
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The measurements, made from inside the bridge's namespace, where the broker and the coordinator are.
struct RigNetworkBenchmark {
    let hub: String
    let hostPrefix: String
    let hostCount: Int
    let scale: Int
    let tool = BuiltProduct.path(of: "viewfinder")
    let hubAddress = "10.88.0.1"
    let work = String(cString: mkdtemp(strdup("/tmp/rig-network-benchmark.XXXXXX")))

    /// Makes the bridge with `scale` hosts, runs the measurements inside it, and removes it.
    static func setUpAndMeasure(scale: Int) async throws {
        guard getuid() == 0 else { throw BenchmarkFailure("run as root: the hosts are network namespaces") }
        let tool = BuiltProduct.path(of: "viewfinder")
        guard access(tool, X_OK) == 0 else {
            throw BenchmarkFailure("no viewfinder at \(tool): swift build -c release --product viewfinder")
        }
        say("A rig across hosts on MQTT: mosquitto \(mosquittoVersion()) and the coordinator in one network namespace,")
        say("`viewfinder rig agent` in one namespace per host, all on a Linux bridge; one CLOCK_REALTIME for all.\n")
        let began = ContinuousClock.now
        let bridge = try await NetworkNamespacePair.Bridge.make(hosts: scale)
        say("\(scale) host namespaces made in \(format(began.duration(to: .now).inSeconds, 1)) s\n")
        defer { Task { await bridge.remove() } }
        let prefix = String(bridge.hosts[0].dropLast(2))
        let child = try ChildProcess(
            "ip",
            [
                "netns", "exec", bridge.hub, executablePath(orElse: CommandLine.arguments[0]), "measure", bridge.hub,
                prefix, String(scale), String(scale),
            ], mergingErrors: true)
        while let line = child.readLine(timeout: .seconds(1800)) { say(line) }
        let status = child.wait(timeout: .seconds(60))
        await bridge.remove()
        guard status == 0 else { throw BenchmarkFailure("the measurements ended with status \(status ?? -1)") }
    }

    /// The system's load averages over 1, 5 and 15 minutes, from `/proc/loadavg`.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: ", ")
    }

    static func mosquittoVersion() -> String {
        let result = try? ChildProcess.run("dpkg-query", ["-W", "-f=${Version}", "mosquitto"])
        return result?.standardOutput ?? "?"
    }

    func host(_ index: Int) -> String { "\(hostPrefix)-\(index)" }

    func run() async throws {
        defer { _ = try? ChildProcess.run("rm", ["-rf", work], timeout: .seconds(60)) }
        setenv("HOME", work, 1)
        var options = MosquittoBroker.Options()
        options.address = hubAddress
        options.port = 1883
        let broker = try MosquittoBroker(options)
        defer { broker.stop() }
        let coordinator = try await connectCoordinator()
        defer { coordinator.disconnect() }
        say("load average at the start (the machine is shared): \(Self.loadAverage())\n")

        let fanOut = try await measureFanOut(coordinator, hosts: 50, rounds: 60)
        let skew = try await measureSkew(coordinator)
        let scaled = try await measureScale(coordinator, broker: broker, hosts: scale)

        say("\nload average at the end: \(Self.loadAverage())")
        say("\nTargets")
        say(
            check(
                fanOut.lastHost.p99 <= 20,
                "fan-out of a fire to 50 hosts, last host p99 ≤ 20 ms: \(ms(fanOut.lastHost.p99))"))
        say(
            check(
                skew.rig.median <= 2, "request skew across 16 hosts × 4 cameras, median ≤ 2 ms: \(ms(skew.rig.median))")
        )
        say(check(skew.rig.p99 <= 5, "request skew across 16 hosts × 4 cameras, p99 ≤ 5 ms: \(ms(skew.rig.p99))"))
        say(
            check(
                skew.rig.median <= skew.oneHost.median,
                "no worse than one host with the same 64 cameras (median \(ms(skew.oneHost.median)))"))
        say(check(scaled.allOnline, "\(scale) agents on one broker, all online and fired"))
    }

    // MARK: - Fan-out

    struct Spread {
        var median: Double
        var p99: Double
        var max: Double

        init(_ values: [Double]) {
            let sorted = values.sorted()
            median = BenchmarkSupport.median(sorted)
            p99 =
                sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
            max = sorted.last ?? 0
        }
    }

    struct FanOut {
        var perHost: Spread
        var lastHost: Spread
    }

    /// Fires `rounds` takes at `hosts` agents of one simulated camera, and reads how long each fire took to reach
    /// each host (its receipt on the host's clock less its making on this one: the same clock).
    func measureFanOut(_ coordinator: NetworkRig, hosts: Int, rounds: Int) async throws -> FanOut {
        say("Fan-out: a fire command (QoS 1) to \(hosts) hosts, one simulated camera each, \(rounds) takes")
        let agents = try await startAgents(0..<hosts, coordinator: coordinator) { _ in ["--simulated", "1"] }
        say(
            "  agent resident memory: \(format(Double(agents.compactMap(\.residentBytes).max() ?? 0) / 1_048_576, 1)) MiB"
        )
        var perHost: [Double] = []
        var lastHost: [Double] = []
        var spreads: [Double] = []
        var failures = 0
        for _ in 0..<rounds {
            let (report, delivery) = try await coordinator.fireShuttersTimingDelivery(lead: .milliseconds(250))
            let times = delivery.values.map { $0.inSeconds * 1000 }
            perHost += times
            lastHost.append(times.max() ?? 0)
            spreads.append(report.requestSpread.inSeconds * 1000)
            failures += report.failures.count
        }
        let result = FanOut(perHost: Spread(perHost), lastHost: Spread(lastHost))
        say("  publish → each host: median \(ms(result.perHost.median)), p99 \(ms(result.perHost.p99))")
        say(
            "  publish → last of \(hosts) hosts: median \(ms(result.lastHost.median)), p99 \(ms(result.lastHost.p99)), "
                + "max \(ms(result.lastHost.max))")
        say(
            "  shutter requests across \(hosts) hosts: median spread \(ms(BenchmarkSupport.median(spreads))); \(failures) cameras failed\n"
        )
        try await stop(agents, coordinator: coordinator)
        return result
    }

    // MARK: - Skew

    struct Skew {
        var rig: Spread
        var oneHost: Spread
    }

    /// Fires 64 simulated Nikons (served from this namespace) as 16 hosts of 4, as one host of 64 and of 4, and with
    /// one gphoto2 process per camera started together on every host.
    func measureSkew(_ coordinator: NetworkRig) async throws -> Skew {
        say("Shutter skew: 64 simulated Nikons served from the broker's namespace, reached over the bridge")
        var simulators: [CameraSimulator] = []
        for _ in 0..<64 {
            let simulator = try CameraSimulator(
                configuration: .init(
                    identity: .nikon, bindAddress: hubAddress, port: 0, sampleImageCount: 0,
                    batteryDrainInterval: .seconds(3600)))
            try simulator.start()
            simulators.append(simulator)
        }
        defer {
            for simulator in simulators { simulator.stop() }
        }
        func cameras(_ range: Range<Int>) -> [String] {
            ["--hosts", range.map { "\(hubAddress):\(simulators[$0].port)" }.joined(separator: ",")]
        }
        _ = try await measureTakes(
            "one host, 4 cameras", coordinator: coordinator, hosts: 0..<1, rounds: 20,
            simulators: Array(simulators[0..<4])
        ) { _ in cameras(0..<4) }
        let oneOfAll = try await measureTakes(
            "one host, 64 cameras", coordinator: coordinator, hosts: 0..<1, rounds: 20, simulators: simulators
        ) { _ in cameras(0..<64) }
        let rig = try await measureTakes(
            "16 hosts × 4 cameras", coordinator: coordinator, hosts: 0..<16, rounds: 50, simulators: simulators
        ) { index in cameras(index * 4..<index * 4 + 4) }
        try measureGPhoto(simulators)
        say("")
        return Skew(rig: rig.requests, oneHost: oneOfAll.requests)
    }

    struct Takes {
        var requests: Spread
        var shutters: Spread
    }

    /// Starts agents on `hosts` with the cameras `cameras` gives, fires `rounds` takes, and reads the spread of the
    /// shutter requests (the agents' reports) and of the shutters (the simulators' own records).
    func measureTakes(
        _ title: String, coordinator: NetworkRig, hosts: Range<Int>, rounds: Int, simulators: [CameraSimulator],
        cameras: @escaping (Int) -> [String]
    ) async throws -> Takes {
        let agents = try await startAgents(hosts, coordinator: coordinator, cameras)
        var requests: [Double] = []
        var shutters: [Double] = []
        var failures = 0
        for _ in 0..<rounds {
            let mark = ContinuousClock.now
            let report = try await coordinator.fireShutters(lead: .milliseconds(250))
            failures += report.failures.count
            requests.append(report.requestSpread.inSeconds * 1000)
            let opened = simulators.compactMap(\.lastShutterRelease).filter { $0 > mark }
            if let first = opened.min(), let last = opened.max() {
                shutters.append(first.duration(to: last).inSeconds * 1000)
            }
        }
        let result = Takes(requests: Spread(requests), shutters: Spread(shutters))
        say(
            "  \(pad(title, 22)) requests: median \(ms(result.requests.median)), p99 \(ms(result.requests.p99)); "
                + "shutters: median \(ms(result.shutters.median)), p99 \(ms(result.shutters.p99)) "
                + "(\(rounds) takes, \(failures) cameras failed)")
        try await stop(agents, coordinator: coordinator)
        return result
    }

    /// One gphoto2 process per camera, all started together, each in its camera's host namespace, three times.
    func measureGPhoto(_ simulators: [CameraSimulator]) throws {
        var spreads: [Double] = []
        for round in 0..<3 {
            let mark = ContinuousClock.now
            let processes = try simulators.enumerated().map { index, simulator in
                let folder = "\(work)/gphoto-\(round)-\(index)"
                mkdir(folder, 0o755)
                let port = "ptpip:\(hubAddress):\(simulator.port):\(simulator.port)"
                return try ChildProcess(
                    "/bin/sh",
                    [
                        "-c",
                        "cd '\(folder)' && exec ip netns exec \(host(index / 4)) gphoto2 --port \(port) "
                            + "--camera 'Nikon DSLR (WLAN)' --capture-image",
                    ], mergingErrors: true)
            }
            for process in processes where process.wait(timeout: .seconds(300)) != 0 {
                throw BenchmarkFailure("gphoto2 failed: \(process.standardOutput)")
            }
            let opened = simulators.compactMap(\.lastShutterRelease).filter { $0 > mark }
            guard opened.count == simulators.count else {
                throw BenchmarkFailure("gphoto2: \(opened.count) of \(simulators.count) shutters opened")
            }
            spreads.append(opened.min()!.duration(to: opened.max()!).inSeconds * 1000)
        }
        let spread = Spread(spreads)
        say(
            "  \(pad("gphoto2, 64 processes", 22)) shutters: median \(ms(spread.median)), max \(ms(spread.max)) (3 takes)"
        )
    }

    // MARK: - Scale

    struct Scale {
        var allOnline: Bool
    }

    /// Starts `hosts` agents of one simulated camera on the one broker: how long until all are online, the broker's
    /// memory, the fan-out, and a take with every picture fetched.
    func measureScale(_ coordinator: NetworkRig, broker: MosquittoBroker, hosts: Int) async throws -> Scale {
        say("Scale: \(hosts) agents, one simulated camera each, on one broker")
        let began = ContinuousClock.now
        let agents = try await startAgents(0..<hosts, coordinator: coordinator) { _ in ["--simulated", "1"] }
        say("  all \(hosts) online \(format(began.duration(to: .now).inSeconds, 1)) s after the first agent started")
        say("  broker resident memory: \(format(Double(broker.residentBytes ?? 0) / 1_048_576, 1)) MiB")
        var lastHost: [Double] = []
        for _ in 0..<10 {
            let (_, delivery) = try await coordinator.fireShuttersTimingDelivery(lead: .milliseconds(500))
            lastHost.append(delivery.values.map { $0.inSeconds * 1000 }.max() ?? 0)
        }
        let fan = Spread(lastHost)
        say("  publish → last of \(hosts) hosts: median \(ms(fan.median)), max \(ms(fan.max)) (10 takes)")
        let take = ContinuousClock.now
        let report = try await coordinator.capturePictures(into: "\(work)/scale", lead: .milliseconds(500))
        let seconds = take.duration(to: .now).inSeconds
        let bytes = report.successes.flatMap(\.value.files).compactMap(\.item.byteCount).reduce(0, +)
        say(
            "  a take with every picture: \(report.successes.count) of \(report.outcomes.count) cameras, "
                + "\(format(Double(bytes) / 1_048_576, 1)) MiB fetched and checked, \(format(seconds, 2)) s from the "
                + "command to the last file")
        try await stop(agents, coordinator: coordinator)
        return Scale(allOnline: report.allSucceeded && report.outcomes.count == hosts)
    }

    // MARK: - Agents

    /// Starts an agent in each host of `range`, its log in a file, and waits until the coordinator sees them all.
    func startAgents(
        _ range: Range<Int>, coordinator: NetworkRig, _ cameras: (Int) -> [String]
    ) async throws -> [ChildProcess] {
        let agents = try range.map { index in
            let command =
                ([
                    "ip", "netns", "exec", host(index), tool, "rig", "agent", "--broker", "mqtt://\(hubAddress):1883",
                    "--name", "h\(index)", "--storage", "\(work)/h\(index)",
                ] + cameras(index))
                .map { "'\($0)'" }.joined(separator: " ")
            return try ChildProcess("/bin/sh", ["-c", "exec \(command) >'\(work)/agent-\(index).log' 2>&1"])
        }
        let online = await coordinator.waitForHosts(count: range.count, timeout: .seconds(600))
        let names = Set(range.map { "h\($0)" })
        let ready = online.filter { names.contains($0.name) && $0.cameras.allSatisfy(\.isConnected) }
        guard ready.count == range.count else {
            throw BenchmarkFailure("\(ready.count) of \(range.count) agents came online; see \(work)/agent-*.log")
        }
        await coordinator.measureClocks(samples: 3)
        return agents
    }

    /// Stops agents with Ctrl-C, as a user would, and waits until the coordinator sees them all offline.
    func stop(_ agents: [ChildProcess], coordinator: NetworkRig) async throws {
        await offThePool {
            for agent in agents { agent.interrupt() }
            for agent in agents where agent.wait(timeout: .seconds(20)) == nil {
                agent.signal(SIGKILL)
                _ = agent.wait(timeout: .seconds(10))
            }
        }
        try await waitUntil("the agents to be offline") { !coordinator.hosts.contains(where: \.isOnline) }
    }

    func connectCoordinator() async throws -> NetworkRig {
        var configuration = NetworkRig.Configuration(broker: RigBroker(host: hubAddress))
        configuration.downloadConcurrency = 8
        let coordinator = try NetworkRig(configuration: configuration)
        try await coordinator.connect(timeout: .seconds(30))
        return coordinator
    }

    func ms(_ value: Double) -> String { "\(format(value, 2)) ms" }

    func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    func check(_ met: Bool, _ text: String) -> String { "  \(met ? "met    " : "NOT MET") \(text)" }
}
