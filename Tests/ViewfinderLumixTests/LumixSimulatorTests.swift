import Testing
import ViewfinderCore
import ViewfinderLumix
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

/// The Lumix driver against the simulated Lumix on loopback.
@Suite struct LumixSimulatorTests {
    /// Starts a simulated Lumix on loopback, runs `body` with its `cam.cgi` port and its log, and stops it.
    static func withSimulator(_ body: (UInt16, Locked<[String]>) async throws -> Void) async throws {
        let log = Locked<[String]>([])
        let simulator = LumixSimulator(
            configuration: .init(port: 0, contentPort: 0, log: { line in log.withLock { $0.append(line) } }))
        let (port, _) = try simulator.start()
        do {
            try await body(port, log)
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
        await offThePool { simulator.stop() }
    }

    @Test func theDriverSetsShootsAndRecordsOnTheSimulatedLumix() async throws {
        try await Self.withSimulator { port, log in
            let camera = LumixCameraTests.camera(port: port)
            try await camera.connect()
            #expect(camera.deviceInfo?.model == "DC-TZ90")
            #expect(camera.property(for: .shotsAvailable).commonValue == ShotsAvailableValue(998))
            try await camera.property(for: .iso).setValue(.iso400)
            try await camera.property(for: .whiteBalance).setValue(.daylight)
            let minusTwoThirds = try #require(
                camera.property(for: .exposureCompensation).validSettableValues.first {
                    $0.commonValue?.thousandthsOfAStop == -667
                })
            try await camera.property(for: .exposureCompensation).setValue(minusTwoThirds)
            #expect(log.withLock { $0 }.suffix(3) == ["set iso 400", "set whitebalance daylight", "set exposure -2/3"])
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
            try await waitUntil("the poll to show one picture fewer to fit") {
                camera.property(for: .shotsAvailable).commonValue == ShotsAvailableValue(997)
            }
            try await camera.startVideoRecording()
            #expect(camera.videoRecordingState != .notRecording)
            try await camera.stopVideoRecording()
            #expect(camera.videoRecordingState == .notRecording)
            #expect(log.withLock { $0.contains("recording started") && $0.contains("recording stopped") })
            try await camera.disconnect()
        }
    }

    @Test func discoveryMakesALumixForAPanasonicAddressAndLeavesOtherFamilies() async throws {
        try await Self.withSimulator { port, _ in
            let discovery = CameraDiscovery(connectors: [LumixCameraConnector()])
            let camera = try await discovery.manualDiscovery.discover(
                .cameraType(.panasonic, atAddress: "127.0.0.1", port: port))
            #expect(camera is LumixCamera)
            try await camera.connect()
            #expect(camera.deviceInfo?.model == "DC-TZ90")
            try await camera.disconnect()
            let error = await #expect(throws: ViewfinderError.self) {
                try await discovery.manualDiscovery.discover(.cameraType(.nikon, atAddress: "127.0.0.1", port: port))
            }
            #expect(error?.code == .notAvailable)
            #expect(error?.message.contains("Panasonic") == true, "\(String(describing: error))")
        }
    }
}
