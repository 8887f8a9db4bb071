import Foundation
import Testing
import Viewfinder
import ViewfinderSimulator
import ViewfinderTestSupport

extension SimulatedCameraCommands {
    /// The connection options every camera command takes, the camera's question to its user shown on the terminal,
    /// and `camera categories`, against the simulated cameras.
    @Suite(.timeLimit(.minutes(3))) struct CameraConnectionCommandTests {
        /// A simulated camera that asks its user about every new client, for an hour unless the test answers.
        static func askingCamera() throws -> CameraSimulator {
            var configuration = CameraSimulator.Configuration(identity: .canon, port: 0, sampleImageCount: 0)
            configuration.pairedClients = []
            configuration.pairingPrompt = .seconds(3600)
            let simulator = try CameraSimulator(configuration: configuration)
            try simulator.start()
            return simulator
        }

        /// Starts `camera info` against `simulator` and waits until it shows the camera's question.
        static func startAsking(_ simulator: CameraSimulator) throws -> ChildProcess {
            let process = try ChildProcess(
                Tool.path, ["camera", "info", "--host", "127.0.0.1:\(simulator.port)", "--family", "canon"])
            let asked = process.waitForOutput(timeout: .seconds(60)) { _ in
                process.standardError.contains("Confirm the connection on the camera's screen")
            }
            #expect(asked, "\(process.standardError)")
            #expect(process.standardError.contains("Ctrl-C cancels"), "\(process.standardError)")
            return process
        }

        @Test func theCommandWaitsForTheCamerasUserAndThenRuns() async throws {
            try await onOwnThread {
                let simulator = try Self.askingCamera()
                defer { simulator.stop() }
                let process = try Self.startAsking(simulator)
                // The prompt comes once the client has waited 2 s for the camera; the camera's thread, which counts
                // the client it holds, may come to it late on a busy machine.
                let deadline = ContinuousClock.now + .seconds(60)
                while simulator.clientsAwaitingPairing < 1, ContinuousClock.now < deadline { usleep(2_000) }
                #expect(simulator.clientsAwaitingPairing == 1)
                simulator.confirmPairing()
                let status = process.wait(timeout: .seconds(60))
                #expect(status == 0, "\(process.standardError)")
                #expect(process.standardOutput.contains("Canon"), "\(process.standardOutput)")
                // Known from then on: the next command connects without asking.
                let again = try Tool.run(
                    ["camera", "info", "--host", "127.0.0.1:\(simulator.port)", "--family", "canon"],
                    timeout: .seconds(60))
                #expect(again.status == 0, "\(again)")
                #expect(!again.standardError.contains("Confirm the connection"), "\(again)")
                #expect(simulator.pairingRequests == 1)
            }
        }

        @Test func ctrlCGivesUpWaitingForTheCamerasUser() async throws {
            try await onOwnThread {
                let simulator = try Self.askingCamera()
                defer { simulator.stop() }
                let process = try Self.startAsking(simulator)
                process.interrupt()
                let status = process.wait(timeout: .seconds(60))
                #expect(status == 130, "\(process.standardError)")
                #expect(
                    process.standardError.contains("cancelled while the camera asked its user"),
                    "\(process.standardError)")
            }
        }

        /// `viewfinder simulate --require-pairing 0` holds a new client until 'confirm' is typed on its input.
        @Test func theSimulateCommandHoldsANewClientUntilConfirmIsTyped() async throws {
            try await onOwnThread {
                let simulate = try Tool.start(
                    ["simulate", "--identity", "nikon", "--port", "0", "--require-pairing", "0"], waitingFor: " as ")
                defer {
                    simulate.interrupt()
                    _ = simulate.wait(timeout: .seconds(30))
                }
                let line = simulate.standardOutput.split(separator: "\n").first {
                    $0.hasPrefix("listening on 127.0.0.1:")
                }
                let port = try #require(line.map { String($0.dropFirst(23).prefix { $0.isNumber }) })
                let client = try ChildProcess(Tool.path, ["camera", "info", "--host", "127.0.0.1:\(port)"])
                let asked = client.waitForOutput(timeout: .seconds(60)) { _ in
                    client.standardError.contains("Confirm the connection on the camera's screen")
                }
                #expect(asked, "\(client.standardError)")
                try simulate.write("confirm\n")
                #expect(simulate.waitForOutput(timeout: .seconds(30)) { $0.contains("confirm: 1 client waiting") })
                #expect(client.wait(timeout: .seconds(60)) == 0, "\(client.standardError)")
                #expect(client.standardOutput.contains("Nikon"), "\(client.standardOutput)")
            }
        }

        @Test func syncClockWarnsOfACameraWithoutAClock() async throws {
            try await CameraUnderTest.with(identity: .sony) { camera in
                let result = try camera.run("camera", "info", "--sync-clock")
                #expect(result.status == 0, "\(result)")
                #expect(result.standardError.contains("warning: "), "\(result)")
                #expect(result.standardError.contains("offers no way to set its clock"), "\(result)")
                let json = try camera.run("camera", "categories", "--sync-clock", "--json")
                #expect(json.status == 0, "\(json)")
                #expect(json.standardError.contains(#""warning":"clockSyncNotSupported""#), "\(json)")
            }
        }

        @Test func syncClockSetsTheNikonsClock() async throws {
            try await CameraUnderTest.with { camera in
                let plain = try camera.run("camera", "info")
                #expect(plain.status == 0, "\(plain)")
                #expect(camera.simulator.requestsAnswered(.setDevicePropValue) == 0)
                let result = try camera.run("camera", "info", "--sync-clock")
                #expect(result.status == 0, "\(result)")
                #expect(!result.standardError.contains("warning"), "\(result)")
                // The clock is set with DateTime (0x5011), the one value `camera info` sets.
                #expect(camera.simulator.requestsAnswered(.setDevicePropValue) == 1)
                #expect(abs(camera.simulator.clockOffset) <= 2, "offset \(camera.simulator.clockOffset)")
            }
        }

        @Test func powerOffTurnsTheNikonOffAndWarnsOfTheCanon() async throws {
            try await CameraUnderTest.with { camera in
                let result = try camera.run("camera", "info", "--power-off")
                #expect(result.status == 0, "\(result)")
                #expect(camera.simulator.requestsAnswered(.powerDown) == 1)
            }
            try await CameraUnderTest.with(identity: .canon) { camera in
                let result = try camera.run("camera", "info", "--power-off")
                #expect(result.status == 0, "\(result)")
                #expect(result.standardError.contains("warning: the camera was not turned off"), "\(result)")
            }
        }

        @Test func categoriesShowsAndSwitches() async throws {
            try await CameraUnderTest.with { camera in
                let result = try camera.run("camera", "categories", "--json")
                #expect(result.status == 0, "\(result)")
                struct Report: Decodable {
                    var supported: [String]
                    var current: [String]
                    var switched: String?
                }
                let report = try JSONDecoder().decode(Report.self, from: Data(result.standardOutput.utf8))
                #expect(report.supported.contains("stills"), "\(report)")
                #expect(report.supported.contains("files"), "\(report)")
                #expect(report.current == report.supported, "\(report)")
                #expect(report.switched == nil)

                let switched = try camera.run("camera", "categories", "--switch", "files")
                #expect(switched.status == 0, "\(switched)")
                #expect(switched.standardOutput.contains("Switched to files"), "\(switched)")

                let wrong = try camera.run("camera", "categories", "--switch", "audio")
                #expect(wrong.status == 64, "\(wrong)")
                #expect(wrong.standardError.contains("--switch takes stills, files or video"), "\(wrong)")
            }
        }
    }
}
