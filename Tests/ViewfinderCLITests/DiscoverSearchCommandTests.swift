import Foundation
import Testing
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `viewfinder discover` searching the network, and `--camera`, across a veth pair between network namespaces:
/// `viewfinder simulate --announce both` as a Canon (or `--announce ssdp` as a Sony Camera Remote API body) in one,
/// the commands in the other.
@Suite(.serialized, .timeLimit(.minutes(3))) struct DiscoverSearchCommandTests {
    struct Found: Decodable {
        var id: String
        var name: String
        var family: String
        var model: String
        var host: String
        var port: Int?
        var serialNumber: String?
        var foundBy: [String]
    }

    /// Runs `body` with `viewfinder simulate --bind GATEWAY ARGUMENTS` in the camera's namespace of a new pair, once
    /// its output holds `ready`, given that output and a way to run `viewfinder` in the app's namespace; then
    /// interrupts the simulator and removes the pair.
    static func withSimulator(
        _ arguments: [String], readyWhen ready: String,
        _ body: (
            NetworkNamespacePair, _ output: String, _ inApp: ([String]) async throws -> ChildProcess.Result
        ) async throws -> Void
    ) async throws {
        let pair = try await ServerAccessTests.namespaces()
        do {
            let simulator = try ChildProcess(
                "ip", ["netns", "exec", pair.camera, Tool.path, "simulate", "--bind", pair.gateway] + arguments,
                mergingErrors: true)
            let started = await offThePool {
                simulator.waitForOutput(timeout: .seconds(60)) { $0.contains(ready) }
            }
            guard started else { throw TestFailure("the simulator did not start:\n\(simulator.standardOutput)") }
            try await body(pair, simulator.standardOutput) { arguments in
                try await ChildProcess.run(
                    NetworkNamespacePair.inside(pair.app, [Tool.path] + arguments), timeout: .seconds(60))
            }
            kill(simulator.pid, SIGINT)
            _ = await simulator.finish(timeout: .seconds(30))
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }

    /// Runs `discover --timeout 2 --json` with `inApp` and returns the one camera it lists; the test fails unless
    /// the tool succeeds and lists exactly one.
    static func discoverOne(_ inApp: ([String]) async throws -> ChildProcess.Result) async throws -> Found {
        let json = try await inApp(["discover", "--timeout", "2", "--json"])
        #expect(json.status == 0, "\(json.output)")
        let found = try JSONDecoder().decode([Found].self, from: Data(json.output.utf8))
        try #require(found.count == 1, "\(json.output)")
        return found[0]
    }

    @Test func discoverListsTheAnnouncedCameraOnceAndCameraCommandsPickItByName() async throws {
        let canon = ["--identity", "canon", "--port", "15740", "--announce", "both"]
        try await Self.withSimulator(canon, readyWhen: "over SSDP") { pair, _, inApp in
            let found = try await Self.discoverOne(inApp)
            #expect(found.family == "canon")
            #expect(found.model == "Canon EOS 5D Mark IV")
            #expect(found.host == pair.gateway)
            #expect(found.port == 15740)
            #expect(found.serialNumber == "CN0000001")
            #expect(Set(found.foundBy) == ["ssdp", "mdns"])

            let table = try await inApp(["discover", "--timeout", "2", "--family", "canon"])
            #expect(table.output.contains("FOUND BY"), "\(table.output)")
            #expect(table.output.contains("\(pair.gateway):15740"), "\(table.output)")
            #expect(
                try await inApp(["discover", "--timeout", "1", "--family", "nikon"]).output
                    .contains("No camera announced itself"))

            let info = try await inApp(["camera", "info", "--camera", "cn0000001"])
            #expect(info.status == 0, "\(info.output)")
            #expect(info.output.contains("serial number  CN0000001"), "\(info.output)")
            let missing = try await inApp(["camera", "info", "--camera", "no such camera"])
            #expect(missing.status == 69, "\(missing.output)")
            #expect(missing.output.contains("no camera named 'no such camera' announced itself"), "\(missing.output)")
        }
    }

    /// A Camera Remote API body whose description is on another port than real bodies' 64321 is found at that port,
    /// and `--camera` connects to it there.
    @Test func aRemoteAPIBodyFoundOverSSDPIsReachedAtThePortOfItsDescription() async throws {
        let sony = ["--identity", "sony-remote-api", "--port", "0", "--announce", "ssdp"]
        try await Self.withSimulator(sony, readyWhen: "description at") { pair, output, inApp in
            // "announcing over SSDP at http://HOST:PORT/dd.xml"
            let line = try #require(output.split(separator: "\n").first { $0.contains("over SSDP") }, "\(output)")
            let location = try #require(line.split(separator: " ").last)
            let port = try #require(Int(location.split(separator: ":").last?.split(separator: "/").first ?? ""))
            #expect(port != 64321)
            let found = try await Self.discoverOne(inApp)
            #expect(found.family == "sonyRemoteAPI")
            #expect(found.host == pair.gateway)
            #expect(found.port == port)

            let info = try await inApp(["camera", "info", "--camera", found.name])
            #expect(info.status == 0, "\(info.output)")
            #expect(info.output.contains("ILCE-6000"), "\(info.output)")
        }
    }
}
