import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// The client against a strict simulated camera, which refuses the kindnesses a simulator tends to grow (see the
    /// simulator's StrictMode article): each tolerance the client needs for real bodies, shown against one.
    @Suite(.timeLimit(.minutes(3))) struct StrictCameraTests {
        /// A simulator whose log lines are kept, for the tests to see what the camera did.
        static func strictSimulator(_ lines: Locked<[String]>) throws -> CameraSimulator {
            var configuration = CameraSimulator.Configuration(port: 0, sampleImageCount: 0)
            configuration.strict = true
            configuration.log = { line in lines.withLock { $0.append(line) } }
            let simulator = try CameraSimulator(configuration: configuration)
            try simulator.start()
            return simulator
        }

        /// A camera busy for its first request after its session opens is asked again until it answers.
        @Test func aWakingCameraIsAskedAgain() async throws {
            let lines = Locked<[String]>([])
            let simulator = try Self.strictSimulator(lines)
            let session = try await PTPSession.connect(
                to: "127.0.0.1", configuration: .init(port: simulator.port, clientName: "tests"))
            #expect(session.deviceInfo.model == "Simulated Camera")
            #expect(lines.withLock { $0.contains { $0.hasPrefix("busy while waking: GetDeviceInfo") } })
            #expect(try await session.storageIDs().count == 1)
            await session.close()
            await simulator.stopOffThePool()
        }

        /// A camera that serves one client takes a bare connection as its client: the client sends it nothing before
        /// its handshake, and one that finds it busy tries again.
        @Test func aCameraLeftBusyByABareConnectionIsTriedAgain() async throws {
            let lines = Locked<[String]>([])
            let simulator = try Self.strictSimulator(lines)
            let port = simulator.port
            try await onOwnThread {
                try Socket.connect(host: "127.0.0.1", port: port, timeout: .seconds(5)).close()
            }
            try await waitUntil("the camera to take the bare connection") {
                lines.withLock { $0.contains { $0.contains("closed without a handshake") } }
            }
            let camera = PTPCamera(
                host: "127.0.0.1", transport: .init(port: port, clientName: "tests", busyRetryTimeout: .seconds(30)))
            try await camera.connect()
            #expect(lines.withLock { $0.contains { $0.contains("the camera is busy") } })
            try await camera.disconnect()
            await simulator.stopOffThePool()
        }

        /// A camera that answers no probes is not dropped for it: probing stops, and the session goes on.
        @Test func aCameraThatAnswersNoProbesKeepsItsSession() async throws {
            let lines = Locked<[String]>([])
            let simulator = try Self.strictSimulator(lines)
            let transport = PTPIPTransport.Configuration(
                port: simulator.port, clientName: "tests", responseTimeout: .seconds(2),
                eventProbeInterval: .milliseconds(100))
            let camera = PTPCamera(host: "127.0.0.1", transport: transport)
            try await camera.connect()
            let link = try camera.driverCore.connection(for: "test")
            let ptpip = try #require(link.session.transport as? PTPIPTransport)
            try await waitUntil("probing to stop") { ptpip.probing.withLock { $0 } == .stopped }
            #expect(camera.connectionState == .connected)
            #expect(try await camera.storages().count == 1)
            try await camera.disconnect()
            await simulator.stopOffThePool()
        }
    }
}
