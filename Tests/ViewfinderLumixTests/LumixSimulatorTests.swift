import Testing
import ViewfinderCore
import ViewfinderLumix
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

/// The Lumix driver against the simulated Lumix on loopback.
@Suite struct LumixSimulatorTests {
    /// Starts a simulated Lumix on loopback, runs `body` with a camera for it (not yet connected) and its log, and
    /// stops it.
    static func withSimulator(_ body: (LumixCamera, Locked<[String]>) async throws -> Void) async throws {
        let log = Locked<[String]>([])
        let simulator = LumixSimulator(
            configuration: .init(port: 0, contentPort: 0, log: { line in log.withLock { $0.append(line) } }))
        let (port, contentPort) = try simulator.start()
        do {
            try await body(LumixCameraTests.camera(port: port, contentPort: contentPort), log)
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
        await offThePool { simulator.stop() }
    }

    @Test func theDriverSetsShootsAndRecordsOnTheSimulatedLumix() async throws {
        try await Self.withSimulator { camera, log in
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
        try await Self.withSimulator { simulated, _ in
            let port = simulated.configuration.port
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

    @Test func theCardIsListedDownloadedWithProgressAndItsThumbnailsFetched() async throws {
        try await Self.withSimulator { camera, _ in
            try await camera.connect()
            #expect(camera.supportedFunctionality.contains(.fileAccess))
            let files = try #require(camera.fileAccess)
            let storage = try #require(try await files.storages().first)
            let items = try await files.contents(of: nil, in: storage)
            #expect(items.map(\.name) == ["DO1000001.JPG", "DO1000002.JPG"])
            #expect(items.allSatisfy { $0.kind == .jpegImage && $0.isByteCountKnown })
            let progress = Locked<[CameraTransferProgress]>([])
            let bytes = try await files.downloadData(of: items[0]) { step in progress.withLock { $0.append(step) } }
            #expect(bytes.prefix(2) == [0xFF, 0xD8] && bytes.suffix(2) == [0xFF, 0xD9])
            #expect(UInt64(bytes.count) == items[0].byteCount)
            let steps = progress.withLock { $0 }
            #expect(steps.last?.completedByteCount == UInt64(bytes.count))
            #expect(steps.allSatisfy { $0.totalByteCount == UInt64(bytes.count) })
            #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.completedByteCount < $1.completedByteCount })
            let thumbnail = try await files.thumbnail(of: items[1])
            #expect(thumbnail.prefix(2) == [0xFF, 0xD8])
            let added = Locked<[String]>([])
            let token = camera.addNewFileObserver { item in added.withLock { $0.append(item.name) } }
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
            #expect(added.withLock { $0 } == ["DO1000003.JPG"])
            withExtendedLifetime(token) {}
            #expect(try await files.contents(of: nil, in: storage).map(\.name).last == "DO1000003.JPG")
            let refusal = await #expect(throws: ViewfinderError.self) { try await files.delete(items[0]) }
            #expect(refusal?.code == .notAvailable)
            try await camera.disconnect()
        }
    }
}
