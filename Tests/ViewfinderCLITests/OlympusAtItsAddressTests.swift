import Foundation
import Testing
import ViewfinderTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// The simulated Olympus where every Olympus is, 192.168.0.10, in a network namespace whose peer has it as gateway:
/// olympuswifi (PyPI, in the test venv), which hard-codes that address, drives it unchanged, and
/// `viewfinder discover --gateway` and `camera info` find it there.
@Suite(.serialized, .timeLimit(.minutes(3))) struct OlympusAtItsAddressTests {
    static let repository = String(
        #filePath.dropLast("Tests/ViewfinderCLITests/OlympusAtItsAddressTests.swift".count))
    static let python = repository + ".build-peers/bin/python3"
    static let peers = repository + "Tests/ViewfinderOlympusTests/Peers/"

    @Test func olympuswifiAndDiscoveryFindTheSimulatorAtTheOlympusAddress() async throws {
        guard getuid() == 0 else {
            try Test.cancel("network namespaces need root (as in CI): the Olympus address is not checked here")
        }
        guard access(Self.python, X_OK) == 0 else {
            throw TestFailure("\(Self.python) is missing: make test-deps installs olympuswifi")
        }
        let pair: NetworkNamespacePair
        do {
            pair = try await NetworkNamespacePair.make(gateway: "192.168.0.10", appAddress: "192.168.0.20")
        } catch {
            try Test.cancel("network namespaces cannot be made here, so the Olympus address is not checked: \(error)")
        }
        do {
            let simulator = try ChildProcess(
                "ip",
                ["netns", "exec", pair.camera, Tool.path, "simulate", "--identity", "olympus", "--bind", pair.gateway],
                mergingErrors: true)
            let listening = await offThePool {
                simulator.waitForOutput(timeout: .seconds(60)) { $0.contains("listening on 192.168.0.10:80") }
            }
            guard listening else { throw TestFailure("the simulator did not listen:\n\(simulator.standardOutput)") }
            let inApp = { (arguments: [String]) in
                try await ChildProcess.run(NetworkNamespacePair.inside(pair.app, arguments), timeout: .seconds(90))
            }

            // olympuswifi at its own address: port 0 keeps it.
            let directory = try TemporaryDirectory()
            let client = try await inApp([Self.python, Self.peers + "olympuswifi-client.py", "0", directory.path])
            #expect(client.status == 0, "\(client.output)")
            let report = try #require(client.standardOutput.split(separator: "\n").last { $0.hasPrefix("{") })
            #expect(report.contains("\"model\": \"E-M10MarkII\""), "\(report)")
            #expect(report.contains("\"isoAfter\": \"400\""), "\(report)")
            #expect(FileManager.default.fileExists(atPath: directory.path + "/PC060003.JPG"))
            let liveView = try await inApp([Self.python, Self.peers + "olympuswifi-liveview.py", "0", "5"])
            #expect(liveView.status == 0, "\(liveView.output)")
            #expect(liveView.standardOutput.contains("\"frames\": 5, \"jpeg\": true"), "\(liveView.output)")

            let found = try await inApp([Tool.path, "discover", "--gateway", "--family", "olympus", "--json"])
            #expect(found.status == 0, "\(found.output)")
            #expect(found.output.contains("E-M10MarkII") && found.output.contains("192.168.0.10"), "\(found.output)")
            let info = try await inApp([Tool.path, "camera", "info", "--gateway", "--family", "olympus"])
            #expect(info.status == 0, "\(info.output)")
            #expect(info.output.contains("E-M10MarkII"), "\(info.output)")
            // Without --family: nothing answers at the gateway's PTP/IP port, and the Olympus there is found.
            let any = try await inApp([Tool.path, "discover", "--gateway", "--json"])
            #expect(any.status == 0, "\(any.output)")
            #expect(any.output.contains("E-M10MarkII") && any.output.contains("192.168.0.10"), "\(any.output)")

            kill(simulator.pid, SIGINT)
            _ = await simulator.finish(timeout: .seconds(30))
        } catch {
            await pair.remove()
            throw error
        }
        await pair.remove()
    }
}
