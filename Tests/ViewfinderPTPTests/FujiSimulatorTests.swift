import Synchronization
import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP
@testable import ViewfinderSimulator

/// Viewfinder's client against the simulated Fujifilm X-T4 over Fujifilm's WiFi protocol: its values in Fujifilm's
/// encodings, settings, the shutter, the pictures, live view from the JPEG stream, and a repeated init as gphoto2
/// sends it.
@Suite struct FujiSimulatorTests {
    /// A simulated X-T4, autofocus finding focus or not.
    static func fuji(focusSucceeds: Bool = true) -> CameraSimulator.Configuration {
        var configuration = CameraSimulator.Configuration(identity: .fuji, sampleImageCount: 2)
        configuration.focusSucceeds = focusSucceeds
        return configuration
    }

    @Test func theSimulatedXT4ShowsFujifilmsValuesAndTakesSettings() async throws {
        var configuration = Self.fuji()
        // A full battery however long the test takes: it loses a percent a minute while connected, and a run of the
        // whole suite under the thread sanitizer took longer.
        configuration.batteryDrainInterval = .seconds(86_400)
        try await CameraHarness.run(configuration) { harness in
            let camera = harness.camera
            #expect(camera.deviceInfo?.model == "X-T4")
            let iso = camera.property(for: .iso)
            #expect(iso.currentValue?.commonValue == .iso100)
            let offered = iso.validSettableValues.map(\.localizedDisplayValue)
            #expect(Array(offered.prefix(3)) == ["Auto 1", "Auto 2", "Auto 3"], "\(offered)")
            try await iso.setValue(.iso800)
            #expect(iso.currentValue?.commonValue == .iso800)
            #expect(camera.property(for: .shutterSpeed).currentValue?.localizedDisplayValue == "1/125")
            try await camera.property(for: .shutterSpeed).setValue(ShutterSpeedValue(seconds: 1.0 / 60)!)
            #expect(camera.property(for: .shutterSpeed).currentValue?.rawValue == .integer(15625))
            #expect(camera.property(for: .filmSimulation).currentValue?.localizedDisplayValue == "PROVIA/Standard")
            #expect(camera.property(for: .filmSimulation).validSettableValues.count == 18)
            #expect(camera.property(for: .focusMode).currentValue?.commonValue == .singleAutoFocus)
            #expect(
                camera.property(for: .batteryLevel).currentValue?.commonValue == BatteryLevelValue(clampingPercent: 100)
            )
        }
    }

    @Test func theShutterFocusesShootsAndTheNewPictureDownloads() async throws {
        try await CameraHarness.run(Self.fuji()) { harness in
            let item = try await harness.takePicture(engagingAutoFocus: true)
            #expect(item.name == "DSCF0003.JPG")
            #expect(try await harness.camera.downloadData(of: item) == harness.simulator.objectData(item.id))
        }
    }

    @Test func aBodyThatCannotFocusTakesNoPicture() async throws {
        try await CameraHarness.run(Self.fuji(focusSucceeds: false)) { harness in
            let error = await #expect(throws: ViewfinderError.self) {
                try await harness.camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
            }
            #expect(error?.code == .notAvailable)
        }
    }

    @Test func liveViewComesFromTheJPEGStream() async throws {
        try await CameraHarness.run(Self.fuji()) { harness in
            let frames = try await harness.liveViewFrameSizes(3)
            #expect(frames.sizes == Array(repeating: Dimensions(width: 640, height: 424), count: 3))
            #expect(frames.framesFetched <= 4, "frames are fetched as they are asked for")
        }
    }

    /// The live view port stays open for the session: a client that first asks for live view well after remote capture
    /// started (here twice the camera's reply timeout) still gets frames.
    @Test func liveViewStartedLateStillComes() async throws {
        var configuration = Self.fuji()
        // Long enough for the client's requests to arrive whole on a busy machine under the thread sanitizer.
        configuration.replyTimeout = .seconds(1)
        try await CameraHarness.run(configuration) { harness in
            try await Task.sleep(for: .seconds(2))
            let frames = try await harness.liveViewFrameSizes(2)
            #expect(frames.sizes.count == 2)
        }
    }

    /// A consumer that stops taking frames leaves the camera skipping them, not waiting: once it takes frames again
    /// they come, although the camera's waits are shorter than the pause.
    @Test func aPausedLiveViewConsumerGetsFramesAgain() async throws {
        let log = Observed<String>()
        var configuration = Self.fuji()
        configuration.liveViewFrameRate = 200
        // The camera's waits, its wait for the event connection among them: short enough that the pause outlasts
        // them, long enough for a client on a busy machine to attach its connections.
        configuration.replyTimeout = .seconds(2)
        configuration.log = { log.append($0) }
        try await CameraHarness.run(configuration) { harness in
            let resume = Locked<(@Sendable () -> Void)?>(nil)
            let consumed = Atomic(0)
            let ended = Locked<String?>(nil)
            let cancellable = harness.camera.liveViewPublisher.sinkWithReadyHandler { completion in
                ended.withLock { $0 = "\(completion)" }
            } receiveValue: { _, ready in
                if consumed.add(1, ordering: .relaxed).newValue == 1 {
                    resume.withLock { $0 = ready }
                } else if consumed.load(ordering: .relaxed) < 3 {
                    ready()
                }
            }
            try await waitUntil("the first frame") {
                consumed.load(ordering: .relaxed) == 1 || ended.withLock { $0 } != nil
            }
            try #require(ended.withLock { $0 } == nil, "live view ended: \(ended.withLock { $0 } ?? "")")
            // The camera may have skipped frames before the first was read; what counts is that it skips now.
            try await waitUntil("the camera to skip frames nobody takes") {
                log.all.last { $0.hasPrefix("fuji: live view:") }
                    == "fuji: live view: the client takes no frames; skipping them"
            }
            #expect(consumed.load(ordering: .relaxed) == 1)
            resume.withLock { $0 }?()
            try await waitUntil("frames after the pause") { consumed.load(ordering: .relaxed) == 3 }
            cancellable.cancel()
        }
    }

    /// gphoto2 sends the 82-byte init twice on the same connection; the camera acknowledges both, zero-padded to 68
    /// bytes, and then takes OpenSession.
    @Test func aRepeatedInitIsAcknowledgedAgain() async throws {
        let simulator = try CameraSimulator(
            configuration: CameraSimulator.Configuration(identity: .fuji, port: 0, sampleImageCount: 0))
        try simulator.start()
        try await onOwnThread {
            let connection = try PTPIPConnection.connect(
                to: "127.0.0.1", port: simulator.port, connectTimeout: .seconds(5), timeout: .seconds(10),
                maximumControlPacketLength: 1 << 10)
            defer { connection.close() }
            let request = FujiWiFiPacket.initRequest(guid: .zero, name: "gphoto2")
            for _ in 0..<2 {
                try io { () throws(SocketError) in
                    try connection.socket.send(request, timeout: .seconds(5), while: "test")
                }
                let ack = try FujiWiFiTransport.read(68, from: connection, while: "test")
                #expect(Array(ack[0..<8]) == [68, 0, 0, 0, 2, 0, 0, 0])
                guard
                    case .accepted(let acceptance) = try FujiWiFiPacket.decodeInitAnswer(
                        type: 2, payload: Array(ack[8...]))
                else { throw TestFailure("not accepted") }
                #expect(acceptance.name == "X-T4")
            }
            try io { () throws(SocketError) in
                try connection.socket.send(
                    FujiWiFiPacket.container(.command, code: 0x1002, transactionID: 0, parameters: [1]),
                    timeout: .seconds(5), while: "test")
            }
            let header = try FujiWiFiTransport.readHeader(from: connection, while: "test")
            #expect(header.kind == .response && header.code == PTPResponseCode.ok.rawValue)
        }
        await simulator.stopOffThePool()
    }

    /// A setting changed on the camera itself reaches the property's observers through CurrentState (0xD212), the
    /// list of changed properties the client reads a few times a second as libgphoto2 does: the simulated X-T4, as
    /// a real one, lists no DevicePropChanged event and sends none.
    @Test func aDialTurnedOnTheCameraReachesObserversThroughCurrentState() async throws {
        try await CameraHarness.run(Self.fuji()) { harness in
            #expect(try !harness.session.deviceInfo.eventsSupported.contains(.devicePropChanged))
            let iso = harness.camera.property(for: .iso)
            let seen = Observed<String>()
            let token = iso.addObserver { property, _ in
                property.currentValue.map { seen.append($0.localizedDisplayValue) }
            }
            let asked = harness.simulator.requestsAnswered(.getDevicePropValue)
            try harness.simulator.turnDial(.exposureIndex, to: 1600)
            try await waitUntil("the observer to hear of ISO 1600") { seen.all.contains("ISO 1600") }
            #expect(harness.simulator.requestsAnswered(.getDevicePropValue) > asked)
            withExtendedLifetime(token) {}
        }
    }

    /// While live view runs, a dial turned on the camera reaches the property's observers within the poll's bound.
    ///
    /// The bound is one interval of CurrentState questions while live view streams
    /// (`FujiDialect.liveViewPollInterval`, 1 s, where it is 200 ms otherwise) plus the round trips of the question and
    /// the property's read; the wait allows 3 s for a busy machine. The dial turns just after a question at that pace.
    /// Frames keep coming meanwhile.
    @Test func aDialTurnedDuringLiveViewReachesObserversWithinThePollsBound() async throws {
        try await CameraHarness.run(Self.fuji()) { harness in
            let frames = Atomic(0)
            let cancellable = harness.camera.liveViewPublisher(options: [.skipImageDecoding: true])
                .sinkWithReadyHandler { _ in
                } receiveValue: { _, ready in
                    frames.add(1, ordering: .relaxed)
                    ready()
                }
            defer { cancellable.cancel() }
            try await waitUntil("live view frames") { frames.load(ordering: .relaxed) >= 3 }
            // Two more questions: the one due before live view started, then one at live view's pace, so the dial is
            // turned a whole live view interval before the next.
            let asked = harness.simulator.requestsAnswered(.getDevicePropValue)
            try await waitUntil("two CurrentState questions", limit: .seconds(5)) {
                harness.simulator.requestsAnswered(.getDevicePropValue) >= asked + 2
            }
            let seen = Observed<String>()
            let token = harness.camera.property(for: .iso).addObserver { property, _ in
                property.currentValue.map { seen.append($0.localizedDisplayValue) }
            }
            try harness.simulator.turnDial(.exposureIndex, to: 3200)
            try await waitUntil("the observer to hear of ISO 3200", limit: .seconds(3)) {
                seen.all.contains("ISO 3200")
            }
            let framesThen = frames.load(ordering: .relaxed)
            try await waitUntil("frames after the change") { frames.load(ordering: .relaxed) > framesThen + 2 }
            withExtendedLifetime(token) {}
        }
    }

    /// CurrentState's value: a count, then each property's code and value; a count beyond the bytes is refused.
    @Test func currentStateListsTheChangedProperties() throws {
        #expect(try FujiPropertyValues.changedProperties(inCurrentState: []) == [])
        #expect(try FujiPropertyValues.changedProperties(inCurrentState: [0, 0]) == [])
        let listed = try FujiPropertyValues.changedProperties(
            inCurrentState: [2, 0, 0x0F, 0x50, 0x40, 0x06, 0, 0, 0x09, 0xD2, 2, 0, 0, 0])
        #expect(listed == [.exposureIndex, .fujiAFStatus])
        #expect(throws: ViewfinderError.self) {
            try FujiPropertyValues.changedProperties(inCurrentState: [2, 0, 0x0F, 0x50, 0x40, 0x06, 0, 0])
        }
    }
}
