import Foundation
import Testing
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `viewfinder discover` searching the network, and `--camera`, across a veth pair between network namespaces:
/// `viewfinder simulate --announce both` as a Canon in one, the commands in the other.
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

    @Test func discoverListsTheAnnouncedCameraOnceAndCameraCommandsPickItByName() async throws {
        guard getuid() == 0 else {
            try Test.cancel("network namespaces need root (as in CI): network discovery is not checked here")
        }
        let pair: NetworkNamespacePair
        do {
            pair = try await NetworkNamespacePair.make()
        } catch {
            try Test.cancel("network namespaces cannot be made here, so network discovery is not checked: \(error)")
        }
        do {
            let simulator = try ChildProcess(
                "ip",
                [
                    "netns", "exec", pair.camera, Tool.path, "simulate", "--identity", "canon", "--bind", pair.gateway,
                    "--port", "15740", "--announce", "both",
                ], mergingErrors: true)
            let announcing = await offThePool {
                simulator.waitForOutput(timeout: .seconds(60)) { $0.contains("over SSDP") }
            }
            guard announcing else { throw TestFailure("the simulator did not announce:\n\(simulator.standardOutput)") }
            let inApp = { (arguments: [String]) in
                try await ChildProcess.run(
                    NetworkNamespacePair.inside(pair.app, [Tool.path] + arguments), timeout: .seconds(60))
            }
            let json = try await inApp(["discover", "--timeout", "2", "--json"])
            #expect(json.status == 0, "\(json.output)")
            let found = try JSONDecoder().decode([Found].self, from: Data(json.output.utf8))
            try #require(found.count == 1, "\(json.output)")
            #expect(found[0].family == "canon")
            #expect(found[0].model == "Canon EOS 5D Mark IV")
            #expect(found[0].host == pair.gateway)
            #expect(found[0].port == 15740)
            #expect(found[0].serialNumber == "CN0000001")
            #expect(Set(found[0].foundBy) == ["ssdp", "mdns"])

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

            kill(simulator.pid, SIGINT)
            _ = await simulator.finish(timeout: .seconds(30))
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }
}
