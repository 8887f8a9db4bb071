import Testing
import ViewfinderCore
import ViewfinderOlympus
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

/// The Olympus driver against the simulated E-M10 Mark II on loopback.
@Suite struct OlympusCameraTests {
    /// The deadline of a command unless a test says otherwise: one that only a hang reaches, as a busy machine
    /// running the tests under the thread sanitizer may take seconds to answer on loopback.
    static let deadline = Duration.seconds(30)

    /// A camera on loopback at `port`, polled every 20 ms.
    static func camera(
        port: UInt16, maximumAnswerLength: Int = 4 << 20, requestTimeout: Duration = deadline
    ) -> OlympusCamera {
        var configuration = OlympusCamera.Configuration()
        configuration.port = port
        configuration.pollInterval = .milliseconds(20)
        configuration.requestTimeout = requestTimeout
        configuration.maximumAnswerLength = maximumAnswerLength
        return OlympusCamera(host: "127.0.0.1", configuration: configuration)
    }

    /// Starts a simulated Olympus on loopback, runs `body` with a camera for it (not yet connected), its port and
    /// its log, and stops it.
    static func withSimulator(_ body: (OlympusCamera, UInt16, Locked<[String]>) async throws -> Void) async throws {
        let log = Locked<[String]>([])
        let simulator = try OlympusSimulator(
            configuration: .init(port: 0, log: { line in log.withLock { $0.append(line) } }))
        let port = try simulator.start()
        do {
            try await body(camera(port: port), port, log)
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
        await offThePool { simulator.stop() }
    }

    @Test func connectingSwitchesToRecordingAndReadsTheTypedProperties() async throws {
        try await Self.withSimulator { camera, _, log in
            try await camera.connect()
            #expect(camera.deviceInfo?.model == "E-M10MarkII")
            #expect(camera.deviceInfo?.version == "4.20")
            #expect(log.withLock { $0 }.contains("mode rec"))
            #expect(camera.property(for: .iso).commonValue == .automatic)
            #expect(camera.property(for: .aperture).commonValue == ApertureValue(fNumber: 5.6))
            #expect(camera.property(for: .shutterSpeed).commonValue == ShutterSpeedValue(seconds: 1.0 / 250))
            #expect(camera.property(for: .exposureCompensation).commonValue == .zero)
            #expect(camera.property(for: .whiteBalance).commonValue == .automatic)
            #expect(camera.property(for: .driveMode).commonValue == .single)
            #expect(camera.property(for: .autoExposureMode).commonValue == .program)
            #expect(camera.property(for: .focusMode).currentValue == nil)
            let speeds = camera.property(for: .shutterSpeed).validSettableValues
            #expect(speeds.first(matchingCommonValue: ShutterSpeedValue(seconds: 60)!) != nil)
            #expect(speeds.first(matchingCommonValue: ShutterSpeedValue(seconds: 1.0 / 4000)!) != nil)
            let compensations = camera.property(for: .exposureCompensation).validSettableValues
            #expect(compensations.first { $0.commonValue?.thousandthsOfAStop == -667 }?.rawValue == .string("-0.7"))
            #expect(compensations.first { $0.commonValue?.thousandthsOfAStop == 333 }?.rawValue == .string("+0.3"))
            let balances = camera.property(for: .whiteBalance).validSettableValues
            #expect(balances.first(matchingCommonValue: .tungsten)?.rawValue == .string("20"))
            try await camera.disconnect()
        }
    }

    @Test func aSetPostsTheValueAndTheOtherCamerasPollShowsIt() async throws {
        try await Self.withSimulator { camera, port, log in
            try await camera.connect()
            try await camera.property(for: .iso).setValue(.iso400)
            #expect(camera.property(for: .iso).commonValue == .iso400)
            try await camera.property(for: .whiteBalance).setValue(.daylight)
            let minusTwoThirds = try #require(
                camera.property(for: .exposureCompensation).validSettableValues.first {
                    $0.commonValue?.thousandthsOfAStop == -667
                })
            try await camera.property(for: .exposureCompensation).setValue(minusTwoThirds)
            #expect(
                log.withLock { $0 }.filter { $0.hasPrefix("set ") }
                    == ["set isospeedvalue 400", "set wbvalue 18", "set expcomp -0.7"])
            // A change made elsewhere reaches the first camera's observers through its poll.
            let other = Self.camera(port: port)
            try await other.connect()
            let seen = Locked<[ISOValue?]>([])
            let token = camera.property(for: .iso).addObserver { property, _ in
                seen.withLock { $0.append(property.commonValue) }
            }
            try await other.property(for: .iso).setValue(.iso1600)
            try await waitUntil("the poll to show ISO 1600") { seen.withLock { $0.contains(.iso1600) } }
            withExtendedLifetime(token) {}
            try await other.disconnect()
            try await camera.disconnect()
        }
    }

    @Test func valuesOutsideTheTablesAreUnknownAndNeverOffered() {
        #expect(OlympusPropertyValues.iso("Low").isUnknown)
        #expect(OlympusPropertyValues.aperture("f").isUnknown)
        #expect(OlympusPropertyValues.shutterSpeed("0\"").isUnknown)
        #expect(OlympusPropertyValues.whiteBalance("99").isUnknown)
        #expect(OlympusPropertyValues.driveMode("bracket").isUnknown)
        #expect(OlympusPropertyValues.exposureCompensation("+50").isUnknown)
        let offered = CameraPropertySettableValues(["200", "Low"].map(OlympusPropertyValues.iso))
        #expect(offered.first(matchingCommonValue: .iso200) != nil)
        #expect(offered.count == 1)
        #expect(OlympusPropertyValues.exposureCompensation("+1.5").commonValue?.thousandthsOfAStop == 1500)
        #expect(OlympusPropertyValues.shutterSpeed("1.3\"").commonValue == ShutterSpeedValue(seconds: 1.3))
    }

    @Test func theShutterTakesAPictureInShutterModeAndObserversHearOfIt() async throws {
        try await Self.withSimulator { camera, _, log in
            try await camera.connect()
            let added = Locked<[CameraFileItem]>([])
            let token = camera.addNewFileObserver { item in added.withLock { $0.append(item) } }
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
            withExtendedLifetime(token) {}
            #expect(added.withLock { $0.map(\.name) } == ["PC060003.JPG"])
            #expect(added.withLock { $0.first?.kind } == .jpegImage)
            let modes = log.withLock { $0.filter { $0.hasPrefix("mode ") || $0.hasPrefix("new picture") } }
            let shot = try #require(modes.firstIndex(of: "new picture PC060003.JPG"))
            #expect(modes[..<shot].last == "mode shutter")
            #expect(modes.last == "mode rec")
            try await camera.disconnect()
        }
    }

    @Test func aHalfPressFocusesWithTakeReadyInRecordingMode() async throws {
        try await Self.withSimulator { camera, _, log in
            try await camera.connect()
            #expect(camera.supportedFunctionality.isSuperset(of: [.shutterHalfPress, .videoRecording]))
            try await camera.engageAutoFocus()
            #expect(camera.autoFocusEngaged)
            let focused = log.withLock { $0.filter { $0 == "focused" || $0.hasPrefix("mode ") } }
            #expect(focused.last == "focused")
            #expect(focused.dropLast().last == "mode rec")
            try await camera.disengageAutoFocus()
            #expect(!camera.autoFocusEngaged)
            #expect(log.withLock { $0.count { $0 == "focused" } } == 1)
            try await camera.disconnect()
        }
    }

    @Test func videoRecordsInMovieModeAndIsRefusedInOthers() async throws {
        try await Self.withSimulator { camera, _, log in
            try await camera.connect()
            let error = await #expect(throws: ViewfinderError.self) { try await camera.startVideoRecording() }
            #expect(error?.code == .notAvailable)
            #expect(error?.message.contains("movie") == true, "\(String(describing: error))")
            #expect(camera.videoRecordingState == .notRecording)
            #expect(!log.withLock { $0 }.contains("recording started"))

            let exposureMode = camera.property(for: .autoExposureMode)
            let movie = try #require(exposureMode.validSettableValues.first { $0.rawValue == .string("movie") })
            try await exposureMode.setValue(movie)
            try await camera.startVideoRecording()
            #expect(camera.videoRecordingState != .notRecording)
            #expect(log.withLock { $0 }.contains("recording started"))
            try await camera.stopVideoRecording()
            #expect(camera.videoRecordingState == .notRecording)
            #expect(log.withLock { $0 }.contains("recording stopped"))
            // Recording took no picture.
            #expect(!log.withLock { $0 }.contains { $0.hasPrefix("new picture PC060003") })
            try await camera.disconnect()
        }
    }

    @Test func theCardIsListedDownloadedWithProgressAndItsThumbnailsFetched() async throws {
        try await Self.withSimulator { camera, _, log in
            try await camera.connect()
            #expect(camera.supportedFunctionality.contains(.fileAccess))
            let files = try #require(camera.fileAccess)
            let storage = try #require(try await files.storages().first)
            let folders = try await files.contents(of: nil, in: storage)
            #expect(folders.map(\.name) == ["100OLYMP"])
            #expect(folders.first?.kind == .folder)
            let items = try await files.contents(of: folders[0], in: storage)
            #expect(items.map(\.name) == ["PC060001.JPG", "PC060002.JPG"])
            #expect(items.allSatisfy { $0.kind == .jpegImage && $0.parentID == folders[0].id })
            #expect(items.first?.captureDate == "20261206T120000")
            let progress = Locked<[CameraTransferProgress]>([])
            let bytes = try await files.downloadData(of: items[0]) { step in progress.withLock { $0.append(step) } }
            #expect(bytes.prefix(2) == [0xFF, 0xD8] && bytes.suffix(2) == [0xFF, 0xD9])
            #expect(UInt64(bytes.count) == items[0].byteCount)
            let steps = progress.withLock { $0 }
            #expect(steps.last?.completedByteCount == UInt64(bytes.count))
            #expect(steps.allSatisfy { $0.totalByteCount == UInt64(bytes.count) })
            let thumbnail = try await files.thumbnail(of: items[1])
            #expect(thumbnail.prefix(2) == [0xFF, 0xD8])
            // Each operation on the card switched to playback and back to recording, where the poll reads.
            let modes = log.withLock { $0.filter { $0.hasPrefix("mode ") } }
            #expect(modes.count >= 8 && modes.last == "mode rec")
            #expect(zip(modes, modes.dropFirst()).allSatisfy { $0 != $1 })
            let refusal = await #expect(throws: ViewfinderError.self) { try await files.delete(items[0]) }
            #expect(refusal?.code == .notAvailable)
            try await camera.disconnect()
        }
    }

    @Test func discoveryMakesAnOlympusForAnOlympusAddressAndLeavesOtherFamilies() async throws {
        try await Self.withSimulator { _, port, _ in
            let discovery = CameraDiscovery(connectors: [OlympusCameraConnector()])
            let camera = try await discovery.manualDiscovery.discover(
                .cameraType(.olympus, atAddress: "127.0.0.1", port: port))
            #expect(camera is OlympusCamera)
            try await camera.connect()
            #expect(camera.deviceInfo?.model == "E-M10MarkII")
            try await camera.disconnect()
            let error = await #expect(throws: ViewfinderError.self) {
                try await discovery.manualDiscovery.discover(.cameraType(.nikon, atAddress: "127.0.0.1", port: port))
            }
            #expect(error?.code == .notAvailable)
        }
    }
}
