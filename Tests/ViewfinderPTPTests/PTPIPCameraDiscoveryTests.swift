import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// Manual discovery of the simulated camera at an address, over loopback TCP.
    @Suite(.timeLimit(.minutes(3))) struct PTPIPCameraDiscoveryTests {
        @Test func aCameraAtAnAddressIsFoundAndConnects() async throws {
            let simulator = try CameraSimulator(configuration: .init(identity: .nikon, port: 0, sampleImageCount: 0))
            try simulator.start()
            let manualDiscovery = CameraDiscovery(connectors: [PTPIPCameraConnector()]).manualDiscovery
            let camera = try await manualDiscovery.discover(
                .cameraType(.nikon, atAddress: "127.0.0.1", port: simulator.port))
            // Found, not yet connected: nothing was sent to the camera, which stays free for the connection.
            #expect(camera.connectionState == .notConnected)
            try await camera.connect()
            #expect(camera.deviceInfo?.model == "Simulated DSLR")
            try await camera.disconnect()
            await simulator.stopOffThePool()
        }

        @Test func nothingListeningAndUnsupportedFamiliesSayWhy() async throws {
            let listener = try Socket.listen(host: "127.0.0.1", port: 0)
            let port = listener.localPort
            listener.close()
            let manualDiscovery = CameraDiscovery(connectors: [PTPIPCameraConnector()]).manualDiscovery
            let camera = try await manualDiscovery.discover(.cameraType(.canon, atAddress: "127.0.0.1", port: port))
            let refused = await #expect(throws: ViewfinderError.self) { try await camera.connect() }
            #expect(refused?.code == .connectionFailed)
            for family in [CameraFamily.fujifilm, .olympus, .panasonic, .sonyRemoteAPI] {
                let unsupported = await #expect(throws: ViewfinderError.self) {
                    _ = try await manualDiscovery.discover(.cameraType(family, atAddress: "127.0.0.1"))
                }
                #expect(unsupported?.code == .notAvailable)
            }
        }
    }
}
