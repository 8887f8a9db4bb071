import Dispatch
import Foundation
import Synchronization
import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// The Canon EOS dialect against the simulated Canon over loopback TCP: events polled with GetEvent, properties in
    /// Canon's codes, the shutter, live view, recording and the card.
    @Suite(.timeLimit(.minutes(3))) struct CanonEOSCameraTests {
        static let canon = CameraSimulator.Configuration(identity: .canon, sampleImageCount: 1)

        @Test func propertiesArriveInEventsWithCanonsCodes() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let camera = harness.camera
                #expect(camera.dialectName == "Canon EOS")
                #expect(
                    camera.supportedFunctionality.isSuperset(of: [
                        .stillCapture, .liveView, .videoRecording, .fileAccess, .propertyControl,
                    ]))
                let iso = camera.property(for: .iso)
                #expect(iso.commonValue == .iso100)
                #expect(iso.currentValue?.rawValue == .integer(0x48))
                #expect(iso.validSettableValues.count == 26)
                #expect(iso.validSettableValues.first?.localizedDisplayValue == "ISO 100")
                #expect(iso.validSettableValues.last?.commonValue == .automatic)
                #expect(iso.validSettableValues.map(\.rawValue).contains(.integer(0x4B)))  // ISO 125, ⅓ stop up
                let aperture = camera.property(for: .aperture)
                #expect(aperture.currentValue?.localizedDisplayValue == "f/5.6")
                #expect(aperture.currentValue?.rawValue == .integer(0x30))
                #expect(
                    aperture.validSettableValues.prefix(4).map(\.localizedDisplayValue) == [
                        "f/1.4", "f/1.6", "f/1.8", "f/2",
                    ])
                let shutter = camera.property(for: .shutterSpeed)
                #expect(shutter.currentValue?.localizedDisplayValue == "1/125")
                #expect(shutter.currentValue?.rawValue == .integer(0x70))
                #expect(shutter.validSettableValues.first?.localizedDisplayValue == "30\"")
                #expect(camera.property(for: .autoExposureMode).commonValue == .manual)
                #expect(camera.property(for: .whiteBalance).commonValue == .automatic)
                #expect(camera.property(for: .focusMode).commonValue == .singleAutoFocus)
                #expect(camera.property(for: .driveMode).commonValue == .single)
                #expect(camera.property(for: .batteryLevel).commonValue == .percent(100))
                #expect((camera.property(for: .shotsAvailable).commonValue?.count ?? 0) > 1000)
                // In manual exposure there is no compensation to set.
                #expect(camera.property(for: .exposureCompensation).valueSetType == .none)
                // Pictures go to the card.
                #expect(harness.simulator.canonEOSDestinations.pictures == 2)
            }
        }

        @Test func setsGoOutAsSetDevicePropValueExAndReturnOnceTheEventsShowThem() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let camera = harness.camera
                try await camera.property(for: .iso).setValue(.iso800)
                #expect(camera.property(for: .iso).currentValue?.rawValue == .integer(0x60))
                #expect(harness.simulator.modelValue(of: .exposureIndex) == .uint16(800))

                // Aperture priority: the camera chooses the shutter speed, and compensation can be set.
                try await camera.property(for: .autoExposureMode).setValue(.aperturePriority)
                try await waitUntil("the shutter speed to be the camera's") {
                    camera.property(for: .shutterSpeed).valueSetType == .none
                        && camera.property(for: .exposureCompensation).valueSetType == .enumeration
                }
                try await camera.property(for: .aperture).setValue(ApertureValue(fNumber: 8)!)
                #expect(harness.simulator.modelValue(of: .fNumber) == .uint16(800))
                try await camera.property(for: .exposureCompensation).setValue(
                    ExposureCompensationValue(thousandthsOfAStop: -667))
                // −⅔ stop is five eighths below zero: 0xFB in one byte.
                #expect(camera.property(for: .exposureCompensation).currentValue?.rawValue == .integer(0xFB))
                #expect(harness.simulator.modelValue(of: .exposureBiasCompensation) == .int16(-667))

                // A value the camera does not take is refused with what the camera said.
                let refused = await #expect(throws: ViewfinderError.self) {
                    try await camera.setRawValue(.integer(0x1234), forPropertyNamed: "iso")
                }
                #expect(refused?.code == .invalidPropertyValue)
                #expect(refused?.responseCode == PTPResponseCode.invalidDevicePropValue.rawValue)
            }
        }

        @Test func changesTheCameraMakesReachObserversThroughThePoll() async throws {
            var configuration = Self.canon
            configuration.batteryDrainInterval = .milliseconds(10)
            try await CameraHarness.run(configuration) { harness in
                let battery = harness.camera.property(for: .batteryLevel)
                let seen = Observed<BatteryLevelValue?>()
                let token = battery.addObserver { property, change in
                    if change.contains(.value) { seen.append(property.commonValue) }
                }
                // The battery drains a percent every 10 ms; Canon reports it in five levels, and a slow poll may see
                // any of the lower four first.
                let lower: [BatteryLevelValue?] = [.percent(75), .percent(50), .percent(25), .percent(10)]
                try await waitUntil("the battery to fall below full") { lower.contains(battery.commonValue) }
                // Observers are called after the value changes, on another thread, with the value as it is then.
                try await waitUntil("the observer to hear the battery fall") {
                    seen.all.contains { lower.contains($0) }
                }
                #expect(seen.all.allSatisfy { $0 == nil || $0 == .percent(100) || lower.contains($0) })
                withExtendedLifetime(token) {}
            }
        }

        @Test func theShutterTakesPicturesWithAndWithoutAutofocus() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let item = try await harness.takePicture(engagingAutoFocus: true)
                #expect(item.name == "IMG_0002.JPG")
                #expect(item.pixelSize == Dimensions(width: 3008, height: 2000))
                #expect(try await harness.camera.downloadData(of: item) == harness.simulator.objectData(item.id))
                #expect(try await harness.takePicture(engagingAutoFocus: false).name == "IMG_0003.JPG")
            }
        }

        @Test func aCameraWithoutACardHoldsEachPictureForTheComputerUntilItIsRead() async throws {
            var configuration = Self.canon
            configuration.canonEOSCardDestination = false
            try await CameraHarness.run(configuration) { harness in
                let camera = harness.camera
                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }
                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                try await waitUntil("the picture to be offered") { files.all.count == 1 }
                let item = try #require(files.all.first)
                #expect(item.name == "IMG_0002.JPG")
                let held = try #require(harness.simulator.objectData(item.id))
                #expect(item.byteCount == UInt64(held.count))
                #expect(try await camera.downloadData(of: item) == held)
                // Once the computer has read it, the camera frees its memory (TransferComplete).
                try await waitUntil("the camera to let go of the picture") {
                    harness.simulator.objectData(item.id) == nil
                }
                withExtendedLifetime(token) {}
            }
        }

        @Test func aPictureTakenWithTheCamerasOwnButtonIsOfferedAndReadOnce() async throws {
            var configuration = Self.canon
            configuration.canonEOSCardDestination = false
            try await CameraHarness.run(configuration) { harness in
                let camera = harness.camera
                #expect(camera.supportedFunctionality.contains(.cameraInitiatedTransfer))
                let requests = Observed<CameraInitiatedTransferRequest>()
                var token: ObservationToken? = camera.addCameraInitiatedTransferHandler { requests.append($0) }
                try harness.simulator.pressShutterButton()
                try await waitUntil("the picture to be offered") { requests.all.count == 1 }
                let request = try #require(requests.all.first)
                #expect(request.fileNameHint == "IMG_0002.JPG")
                #expect(request.isOnlyDestination && request.executionRequiredToClearBuffer)
                let held = try #require(harness.simulator.objectData(request.file.id))
                #expect(request.predictedByteCount == UInt64(held.count))
                #expect(request.isValid && request.state == .notStarted)

                let directory = try TemporaryDirectory()
                let path = directory.path + "/" + request.file.safeFileName
                try await request.execute(toFile: path)
                #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == held)
                #expect(request.state == .complete && !request.isValid)
                // Once read, the camera frees its memory (TransferComplete), and the offer cannot be taken again.
                try await waitUntil("the camera to let go of the picture") {
                    harness.simulator.objectData(request.file.id) == nil
                }
                let again = await #expect(throws: ViewfinderError.self) { try await request.execute(toFile: path) }
                #expect(again?.code == .notAvailable)

                // A handler whose token is gone hears of no more pictures; handlers are called in the order they
                // were added, so the first would have heard of the second picture before the later one did.
                token = nil
                let later = Observed<CameraInitiatedTransferRequest>()
                let laterToken = camera.addCameraInitiatedTransferHandler { later.append($0) }
                try harness.simulator.pressShutterButton()
                try await waitUntil("the second picture to be offered") { later.all.count == 1 }
                #expect(later.all.first?.fileNameHint == "IMG_0003.JPG")
                #expect(requests.all.count == 1)
                withExtendedLifetime((token, laterToken)) {}
            }
        }

        /// A picture taken with the camera's own button makes the camera busy until the picture is written: the
        /// poll that hears of the press reads the events every 20 ms from then on rather than every 100 ms, so that a
        /// tethered picture is heard of soon after the camera has it, and slows down again once it is.
        @Test func aCameraBusyWithAPictureIsPolledOftenUntilThePictureIsWritten() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let camera = harness.camera
                let dialect = try #require(
                    try camera.driverCore.connection(for: "test").dialect as? CanonEOSDialect)
                #expect(dialect.backgroundPollDelay == CanonEOSDialect.pollInterval)
                // A second's exposure keeps the camera busy for longer than the poll takes to hear of it.
                let oneSecond = try #require(
                    camera.property(for: .shutterSpeed).validSettableValues.first {
                        $0.localizedDisplayValue == "1\""
                    })
                try await camera.setRawValue(oneSecond.rawValue, forPropertyNamed: "shutterSpeed")
                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }
                try harness.simulator.pressShutterButton()
                try await waitUntil("the poll to hear that the camera is busy") {
                    dialect.state.withLock { $0.isBusy }
                }
                #expect(dialect.backgroundPollDelay == CanonEOSDialect.activePollInterval)
                #expect(files.all.isEmpty)
                try await waitUntil("the picture to be reported") { files.all.count == 1 }
                try await waitUntil("the camera to be idle again") { !dialect.state.withLock { $0.isBusy } }
                #expect(dialect.backgroundPollDelay == CanonEOSDialect.pollInterval)
                withExtendedLifetime(token) {}
            }
        }

        @Test func anOfferOutlivesNoConnection() async throws {
            var configuration = Self.canon
            configuration.canonEOSCardDestination = false
            try await CameraHarness.run(configuration) { harness in
                let camera = harness.camera
                let requests = Observed<CameraInitiatedTransferRequest>()
                let token = camera.addCameraInitiatedTransferHandler { requests.append($0) }
                try harness.simulator.pressShutterButton()
                try await waitUntil("the picture to be offered") { requests.all.count == 1 }
                let request = try #require(requests.all.first)
                try await camera.disconnect()
                #expect(!request.isValid)
                let error = await #expect(throws: ViewfinderError.self) { _ = try await request.executeData() }
                #expect(error?.code == .notAvailable)
                #expect(error?.message.contains("ended with the connection") == true, "\(String(describing: error))")
                withExtendedLifetime(token) {}
            }
        }

        /// RemoteRelease says in its answer that the camera found no focus; a strict camera refuses RemoteRelease, so
        /// this runs against one that takes it.
        @Test func autofocusThatFindsNoFocusIsAClearErrorAndManualReleaseStillWorks() async throws {
            var configuration = Self.canon
            configuration.focusSucceeds = false
            try await CameraHarness.run(configuration, strict: false) { harness in
                let camera = harness.camera
                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }
                let error = await #expect(throws: ViewfinderError.self) {
                    try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                }
                #expect(error?.code == .notAvailable)
                #expect(error?.message.contains("could not focus") == true, "\(String(describing: error))")
                // The camera's shutter never opened: the call ended without asking for a picture.
                #expect(harness.simulator.lastShutterRelease == nil, "a picture was taken without focus")
                // Without autofocus the shutter releases whatever the focus.
                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
                try await waitUntil("the new file to be reported") { files.all.count == 1 }
                withExtendedLifetime(token) {}
            }
        }

        /// A camera that lists RemoteRelease and refuses it, as newer bodies do (and the strict simulated camera), has
        /// its shutter button pressed instead, with autofocus as asked.
        @Test func aRefusedRemoteReleaseFallsBackToTheShutterButton() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                #expect(try harness.session.deviceInfo.supports(.canonEOSRemoteRelease))
                let files = Observed<CameraFileItem>()
                let token = harness.camera.addNewFileObserver { files.append($0) }
                try await harness.camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                try await waitUntil("the new file to be reported") { files.all.count == 1 }
                withExtendedLifetime(token) {}
            }
        }

        /// A camera without RemoteRelease is pressed half, then fully; a half press that finds no focus takes no
        /// picture, which is reported within the focus timeout.
        @Test func aCameraWithOnlyTheShutterButtonFocusesWithAHalfPress() async throws {
            var configuration = Self.canon
            configuration.deviceInfoChanges = { $0.operationsSupported.removeAll { $0 == .canonEOSRemoteRelease } }
            try await CameraHarness.run(configuration) { harness in
                let files = Observed<CameraFileItem>()
                let token = harness.camera.addNewFileObserver { files.append($0) }
                try await harness.camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                try await waitUntil("the new file to be reported") { files.all.count == 1 }
                withExtendedLifetime(token) {}
            }
            configuration.focusSucceeds = false
            try await CameraHarness.run(
                configuration, camera: PTPCamera.Configuration(focusTimeout: .milliseconds(500))
            ) {
                harness in
                let error = await #expect(throws: ViewfinderError.self) {
                    try await harness.camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                }
                #expect(error?.code == .timeout)
                #expect(error?.message.contains("may not have found focus") == true, "\(String(describing: error))")
            }
        }

        @Test func liveViewComesAtTheConsumersPaceAndGoesBackToTheCameraAfter() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let publisher = harness.camera.liveViewPublisher
                let consumed = Atomic(0)
                let sizes = Observed<Dimensions>()
                let consumer = DispatchQueue(label: "consumer")
                let cancellable = publisher.receive(on: consumer)
                    .sinkWithReadyHandler { _ in
                    } receiveValue: { frame, ready in
                        sizes.append(frame.pixelSize)
                        pause(milliseconds: 50)
                        if consumed.add(1, ordering: .relaxed).newValue < 10 { ready() }
                    }
                try await waitUntil("10 frames consumed") { consumed.load(ordering: .relaxed) == 10 }
                #expect(harness.simulator.canonEOSDestinations.liveView & 2 != 0)
                try await waitUntil("live view to wait for demand") { publisher.statistics.isWaitingForDemand }
                #expect(publisher.statistics.framesFetched <= 11, "fetched \(publisher.statistics.framesFetched)")
                #expect(sizes.all.allSatisfy { $0 == Dimensions(width: 640, height: 424) })
                cancellable.cancel()
                try await waitUntil("live view to go back to the camera's screen") {
                    harness.simulator.canonEOSDestinations.liveView == 1
                }
            }
        }

        @Test func recordingAMovieLeavesAFileOnTheCard() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let camera = harness.camera
                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }
                try await camera.startVideoRecording()
                guard case .recording = camera.videoRecordingState else {
                    Issue.record("not recording: \(camera.videoRecordingState)")
                    return
                }
                try await Task.sleep(for: .milliseconds(200))
                try await camera.stopVideoRecording()
                #expect(camera.videoRecordingState == .notRecording)
                try await waitUntil("the movie to be reported") { !files.all.isEmpty }
                #expect(files.all.first?.kind == .video)
                #expect(files.all.first?.name.hasSuffix(".MOV") == true)
                withExtendedLifetime(token) {}
            }
        }

        @Test func aCameraThatDoesNotKnowThisComputerAsksToBePairedAndKnowsItOncePaired() async throws {
            var configuration = Self.canon
            configuration.port = 0
            configuration.pairedClients = []
            let unpaired = try CameraSimulator(configuration: configuration)
            try unpaired.start()
            let camera = PTPCamera(host: "127.0.0.1", transport: .init(port: unpaired.port))
            let error = await #expect(throws: ViewfinderError.self) { try await camera.connect() }
            await unpaired.stopOffThePool()
            #expect(error?.code == .pairingRequired)
            #expect(error?.message.contains("Pair it on the camera") == true, "\(String(describing: error))")
            #expect(error?.message.contains("\(PTPIPGUID.thisComputer)") == true, "\(String(describing: error))")
            #expect(camera.connectionState == .notConnected)

            // Paired with this computer's identifier, which is the same for every camera object and every run.
            #expect(PTPIPGUID.thisComputer == PTPIPGUID.thisComputer)
            configuration.pairedClients = [.thisComputer]
            let paired = try CameraSimulator(configuration: configuration)
            try paired.start()
            let again = PTPCamera(host: "127.0.0.1", transport: .init(port: paired.port))
            do {
                try await again.connect()
                #expect(again.dialectName == "Canon EOS")
                try await again.disconnect()
            } catch {
                Issue.record("the paired computer was refused: \(error)")
            }
            await paired.stopOffThePool()
        }

        @Test func aCameraThatVanishesEndsTheConnectionAndThePoll() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let camera = harness.camera
                // The observers hear of the end once the connection's values are forgotten; connectionState says so
                // before.
                let ended = Locked(false)
                let token = camera.addConnectionStateObserver { state in
                    if state == .notConnected { ended.withLock { $0 = true } }
                }
                harness.simulator.dropAllConnections()
                try await waitUntil("the observers to hear the camera is gone") { ended.withLock { $0 } }
                withExtendedLifetime(token) {}
                #expect(camera.lastDisconnection?.wasExpected == false)
                let error = await #expect(throws: ViewfinderError.self) {
                    try await camera.property(for: .iso).setValue(.iso200)
                }
                #expect(error?.code == .disconnected || error?.code == .notConnected)
                // What the events said is forgotten with the connection.
                #expect(camera.property(for: .iso).currentValue == nil)
                #expect(camera.property(for: .iso).validSettableValues.isEmpty)
            }
        }
    }
}

/// The EOS dialect against a camera whose events are malformed: the connection fails with a clear error, and
/// nothing the records claim is allocated.
@Suite struct CanonEOSHostileCameraTests {
    static let deviceInfo = PTPDeviceInfo(
        vendorExtensionID: 0x0B,
        operationsSupported: [
            .getDeviceInfo, .openSession, .closeSession, .canonEOSSetRemoteMode, .canonEOSSetEventMode,
            .canonEOSGetEvent,
        ],
        eventsSupported: [], devicePropertiesSupported: [], captureFormats: [], imageFormats: [],
        manufacturer: "Canon Inc.", model: "Canon EOS Scripted", deviceVersion: "1", serialNumber: "1")

    @Test(
        arguments: [
            ("a record that claims a gigabyte", [0x0000_0040, 0xC189] + [UInt32](repeating: 0, count: 2), "claims"),
            ("a list that claims a billion values", [0x18, 0xC18A, 0xD103, 3, 1_000_000_000, 0x48], "values"),
            ("a record below its header", [4, 0xC189], "claims 4 bytes"),
        ] as [(String, [UInt32], String)])
    func malformedEventsFailTheConnectionClearly(_ name: String, _ words: [UInt32], _ message: String) async throws {
        let responder = try ScriptedResponder(deviceInfo: Self.deviceInfo) { peer in
            for code in [PTPOperationCode.canonEOSSetRemoteMode, .canonEOSSetEventMode] {
                try peer.respond(.ok, try peer.expectRequest(code).transactionID)
            }
            let poll = try peer.expectRequest(.canonEOSGetEvent)
            var writer = PTPDataWriter()
            for word in words { writer.append(word) }
            try peer.sendData(writer.bytes, poll.transactionID)
        }
        let camera = PTPCamera(host: "127.0.0.1", transport: .init(port: responder.port, eventProbeInterval: nil))
        let error = await #expect(throws: ViewfinderError.self, "\(name)") { try await camera.connect() }
        #expect(error?.code == .malformedData, "\(name): \(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(name): \(String(describing: error))")
        #expect(camera.connectionState == .notConnected)
        _ = try await responder.recordedFailures()
    }
}
