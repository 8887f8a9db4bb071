import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// Connecting to the simulated camera over loopback TCP, and noticing when it goes away.
    @Suite(.timeLimit(.minutes(3))) struct PTPIPCameraConnectionTests {
        @Test func connectingReadsWhoTheCameraIsAndWhatItCanDo() async throws {
            try await CameraHarness.run(.init(identity: .nikon, sampleImageCount: 0), connect: false) { harness in
                let camera = harness.camera
                let states = Observed<CameraConnectionState>()
                let token = camera.addConnectionStateObserver { states.append($0) }
                #expect(camera.deviceInfo == nil)
                #expect(camera.supportedFunctionality.isEmpty)

                try await camera.connect()
                #expect(states.all == [.connecting, .connected])
                #expect(camera.connectionState == .connected)
                #expect(camera.lastDisconnection == nil)
                let info = try #require(camera.deviceInfo)
                #expect(info.manufacturer == "Nikon Corporation")
                #expect(info.model == "Simulated DSLR")
                #expect(info.serialNumber == "NK0000001")
                #expect(
                    camera.supportedFunctionality == [
                        .stillCapture, .liveView, .videoRecording, .fileAccess, .fileDeletion, .propertyControl,
                        .directFocusDrive, .heldShutter, .shutterHalfPress, .clockUpdate, .powerOffOnDisconnect,
                        .liveViewZoom, .focusInfo, .touchAutoFocus,
                    ])
                withExtendedLifetime(token) {}
            }
        }

        /// A camera busy with another client refuses a connection with InitFail; the client tries again with growing
        /// pauses, and gets in once the other client has let go.
        @Test func aCameraBusyWithAnotherClientIsTriedAgainUntilItIsFree() async throws {
            let refusals = Locked(0)
            var configuration = CameraSimulator.Configuration(sampleImageCount: 0)
            configuration.log = { line in
                if line.contains("the camera is busy") { refusals.withLock { $0 += 1 } }
            }
            try await CameraHarness.run(configuration) { harness in
                var transport = PTPIPTransport.Configuration(
                    port: harness.simulator.port, busyRetryTimeout: .seconds(60))
                transport.clientName = "second client"
                let second = PTPCamera(host: "127.0.0.1", transport: transport)
                let connecting = Task { try await second.connect() }
                try await waitUntil("the camera to refuse the second client") { refusals.withLock { $0 } > 0 }
                try await harness.camera.disconnect()
                try await connecting.value
                #expect(second.connectionState == .connected)
                try await second.disconnect()
            }
        }

        @Test func aGenericCameraHasNoLiveViewOrRecording() async throws {
            try await CameraHarness.run { harness in
                let functionality = harness.camera.supportedFunctionality
                #expect(functionality == [.stillCapture, .fileAccess, .fileDeletion, .propertyControl, .clockUpdate])
                #expect(harness.camera.deviceInfo?.manufacturer == "Viewfinder")
                let error = await #expect(throws: ViewfinderError.self) {
                    try await harness.camera.startVideoRecording()
                }
                #expect(error?.code == .notAvailable)
            }
        }

        @Test func concurrentConnectsShareOneConnectionAndAConnectedCameraStaysConnected() async throws {
            try await CameraHarness.run(connect: false) { harness in
                let camera = harness.camera
                let states = Observed<CameraConnectionState>()
                let token = camera.addConnectionStateObserver { states.append($0) }
                async let first: Void = camera.connect()
                async let second: Void = camera.connect()
                _ = try await (first, second)
                try await camera.connect()
                #expect(states.all == [.connecting, .connected])
                withExtendedLifetime(token) {}
            }
        }

        @Test func aCameraThatIsNotThereFailsToConnectWithAClearError() async throws {
            let listener = try Socket.listen(host: "127.0.0.1", port: 0)
            let port = listener.localPort
            listener.close()
            let camera = PTPCamera(host: "127.0.0.1", transport: .init(port: port))
            let error = await #expect(throws: ViewfinderError.self) { try await camera.connect() }
            #expect(error?.code == .connectionFailed)
            #expect(camera.connectionState == .notConnected)
            let isoError = await #expect(throws: ViewfinderError.self) {
                try await camera.setRawValue(.integer(100), forPropertyNamed: "iso")
            }
            #expect(isoError?.code == .notConnected)
        }

        @Test func disconnectingIsExpectedAndForgetsPropertyValues() async throws {
            try await CameraHarness.run { harness in
                let camera = harness.camera
                #expect(camera.property(for: .iso).currentValue != nil)
                var states: [CameraConnectionState] = []
                let recorded = Observed<CameraConnectionState>()
                let cancellable = camera.connectionStatePublisher().sink { recorded.append($0) }

                try await camera.disconnect()
                states = recorded.all
                #expect(states == [.connected, .disconnecting, .notConnected])
                #expect(camera.lastDisconnection == .requested)
                #expect(camera.lastDisconnection?.wasExpected == true)
                #expect(camera.property(for: .iso).currentValue == nil)
                #expect(camera.deviceInfo == nil)
                try await camera.disconnect()

                // The camera connects again afterwards.
                try await camera.connect()
                #expect(camera.property(for: .iso).currentValue != nil)
                #expect(camera.lastDisconnection == nil)
                cancellable.cancel()
            }
        }

        @Test func aCameraThatClosesItsConnectionsIsReportedAsAnUnexpectedDisconnection() async throws {
            try await CameraHarness.run { harness in
                let camera = harness.camera
                let states = Observed<CameraConnectionState>()
                let token = camera.addConnectionStateObserver { states.append($0) }
                await harness.simulator.stopOffThePool()
                try await waitUntil("the camera to notice") { camera.connectionState == .notConnected }
                let disconnection = try #require(camera.lastDisconnection)
                #expect(!disconnection.wasExpected)
                #expect(disconnection.error?.code == .disconnected)
                // Observers hear of the change on their queue, just after the state changed.
                try await waitUntil("the observer to hear of it") { !states.all.isEmpty }
                #expect(states.all == [.notConnected])
                #expect(camera.property(for: .aperture).currentValue == nil)
                withExtendedLifetime(token) {}
            }
        }

        @Test func aCameraThatStopsAnsweringIsNoticedByProbingTheSilentEventConnection() async throws {
            let transport = PTPIPTransport.Configuration(
                responseTimeout: .seconds(3), eventProbeInterval: .milliseconds(200))
            // A camera that answers probes: a strict one, like many real bodies, does not.
            try await CameraHarness.run(transport: transport, strict: false) { harness in
                let camera = harness.camera
                // While the camera answers, probes keep the connection alive through several silent intervals.
                try await waitUntil("the camera to answer three probes") { harness.simulator.probesAnswered >= 3 }
                #expect(camera.connectionState == .connected)

                harness.simulator.stopAnswering()
                try await waitUntil("the camera to be noticed gone") { camera.connectionState == .notConnected }
                let error = try #require(camera.lastDisconnection?.error)
                #expect(error.code == .timeout)
                #expect(error.message.contains("did not answer a probe"))
            }
        }
    }
}
