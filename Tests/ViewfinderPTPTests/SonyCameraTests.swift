import Dispatch
import Synchronization
import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP
@testable import ViewfinderSimulator

extension SimulatedCameraTests {
    /// The Sony dialect against the simulated α7 IV (protocol 300) and α7 III (protocol 200) over loopback TCP: the
    /// handshake, properties in Sony's codes set directly or by notches, the shutter buttons, pictures in memory,
    /// live view, the movie button, PTP/IP housekeeping and pairing.
    @Suite(.timeLimit(.minutes(3))) struct SonyCameraTests {
        /// The simulator's log lines, for checking what the camera was sent.
        final class Log: Sendable {
            private let lines = Locked<[String]>([])
            var all: [String] { lines.withLock { $0 } }
            func count(containing text: String) -> Int { all.filter { $0.contains(text) }.count }
            func record(_ line: String) { lines.withLock { $0.append(line) } }
        }

        static func configuration(_ identity: CameraSimulator.Identity, log: Log? = nil)
            -> CameraSimulator.Configuration
        {
            var configuration = CameraSimulator.Configuration(identity: identity, sampleImageCount: 1)
            if let log { configuration.log = { log.record($0) } }
            return configuration
        }

        @Test func anAlpha7IVShowsItsPropertiesInSonysCodesAndTakesValuesDirectly() async throws {
            let log = Log()
            try await CameraHarness.run(Self.configuration(.sony, log: log)) { harness in
                let camera = harness.camera
                #expect(camera.dialectName == "Sony")
                #expect(
                    camera.supportedFunctionality.isSuperset(of: [
                        .stillCapture, .liveView, .videoRecording, .fileAccess, .propertyControl,
                    ]))
                let iso = camera.property(for: .iso)
                #expect(iso.commonValue == .iso100)
                #expect(iso.currentValue?.rawValue == .integer(100))
                #expect(iso.validSettableValues.first?.localizedDisplayValue == "Auto ISO")
                #expect(iso.validSettableValues.count == 26)
                let shutter = camera.property(for: .shutterSpeed)
                #expect(shutter.currentValue?.localizedDisplayValue == "1/125")
                #expect(shutter.currentValue?.rawValue == .integer(0x0001_007D))
                #expect(shutter.validSettableValues.first?.localizedDisplayValue == "30\"")
                #expect(camera.property(for: .aperture).currentValue?.localizedDisplayValue == "f/5.6")
                #expect(camera.property(for: .autoExposureMode).commonValue == .manual)
                // The mode dial is the camera's; in manual exposure there is no compensation to set.
                #expect(camera.property(for: .autoExposureMode).valueSetType == .none)
                #expect(camera.property(for: .exposureCompensation).valueSetType == .none)
                #expect(camera.property(for: .driveMode).commonValue == .single)
                #expect(camera.property(for: .batteryLevel).commonValue == .percent(100))
                #expect((camera.property(for: .shotsAvailable).commonValue?.count ?? 0) > 1000)

                try await iso.setValue(.iso800)
                #expect(harness.simulator.modelValue(of: .exposureIndex) == .uint16(800))
                try await shutter.setValue(ShutterSpeedValue(seconds: 1.0 / 250)!)
                #expect(harness.simulator.modelValue(of: .exposureTime) == .uint32(40))
                try await camera.property(for: .aperture).setValue(ApertureValue(fNumber: 8)!)
                #expect(harness.simulator.modelValue(of: .fNumber) == .uint16(800))
                try await camera.property(for: .whiteBalance).setValue(.daylight)
                #expect(harness.simulator.modelValue(of: .whiteBalance) == .uint16(4))
                // Set directly: the camera was asked for no notch.
                #expect(log.count(containing: "notches") == 0, "\(log.all)")
                let refused = await #expect(throws: ViewfinderError.self) {
                    try await camera.setRawValue(.integer(123), forPropertyNamed: "iso")
                }
                #expect(refused?.code == .invalidPropertyValue)
            }
        }

        @Test func anAlpha7IIIMovesItsExposureSettingsByNotchesToTheValue() async throws {
            let log = Log()
            try await CameraHarness.run(Self.configuration(.sonyStepping, log: log)) { harness in
                let camera = harness.camera
                let iso = camera.property(for: .iso)
                #expect(iso.valueSetType == .enumeration)
                try await iso.setValue(.iso3200)
                #expect(iso.commonValue == .iso3200)
                #expect(harness.simulator.modelValue(of: .exposureIndex) == .uint16(3200))
                // The whole distance first (15 notches), as far as the camera goes in one request.
                #expect(log.all.contains { $0.contains("ISO") && $0.contains("by 15 notches") }, "\(log.all)")
                try await iso.setValue(.automatic)
                #expect(harness.simulator.modelValue(of: .exposureIndex) == .uint16(0xFFFF))
                try await camera.property(for: .shutterSpeed).setValue(ShutterSpeedValue(seconds: 1.0 / 1000)!)
                #expect(harness.simulator.modelValue(of: .exposureTime) == .uint32(10))
                try await camera.property(for: .aperture).setValue(ApertureValue(fNumber: 2.8)!)
                #expect(harness.simulator.modelValue(of: .fNumber) == .uint16(280))
                // increment() takes the next listed value, one notch.
                let next = try await camera.property(for: .aperture).increment()
                #expect(next.localizedDisplayValue == "f/3.2")
                #expect(harness.simulator.modelValue(of: .fNumber) == .uint16(320))
            }
        }

        /// A body that lists a value its settings do not let it reach stops moving short of it: the set fails with
        /// an error that says where the camera stopped, once the camera has shown no new value for a while.
        @Test func aStepThatCannotReachItsTargetFailsClearly() async throws {
            var configuration = Self.configuration(.sonyStepping)
            configuration.sonyNotchLimits = [.exposureIndex: 100...1600]
            try await CameraHarness.run(configuration) { harness in
                let iso = harness.camera.property(for: .iso)
                #expect(iso.validSettableValues.contains { $0.commonValue == .iso12800 })
                let error = await #expect(throws: ViewfinderError.self) { try await iso.setValue(.iso12800) }
                #expect(error?.code == .notAvailable)
                #expect(
                    error?.message.contains("stopped moving ISO at ISO 1600") == true, "\(String(describing: error))")
                #expect(error?.message.contains("did not reach ISO 12800") == true, "\(String(describing: error))")
                #expect(harness.simulator.modelValue(of: .exposureIndex) == .uint16(1600))
                #expect(iso.commonValue == .iso1600)
            }
        }

        /// A body that describes an exposure setting without its values has it moved a notch at a time with
        /// increment() and decrement(), the `.stepping` value set; the camera not moving at an end is an error.
        @Test func aSettingListedWithoutValuesMovesAStepAtATime() async throws {
            var configuration = Self.configuration(.sonyStepping)
            configuration.formlessProperties = [.exposureIndex]
            try await CameraHarness.run(configuration) { harness in
                let iso = harness.camera.property(for: .iso)
                #expect(iso.valueSetType == .stepping)
                let up = try await iso.increment()
                #expect(up.commonValue == .iso125)
                #expect(harness.simulator.modelValue(of: .exposureIndex) == .uint16(125))
                let down = try await iso.decrement()
                #expect(down.commonValue == .iso100)
                // Below ISO 100 is automatic, the first of the camera's ISO values.
                let bottom = try await iso.decrement()
                #expect(bottom.commonValue == .automatic)
                let error = await #expect(throws: ViewfinderError.self) { _ = try await iso.decrement() }
                #expect(error?.code == .notAvailable)
                #expect(error?.message.contains("stopped moving ISO") == true, "\(String(describing: error))")
                let direct = await #expect(throws: ViewfinderError.self) { try await iso.setValue(.iso800) }
                #expect(direct?.code == .invalidPropertyValue)
            }
        }

        @Test func theTwoListLayoutGivesTheSameCamera() async throws {
            var configuration = Self.configuration(.sony)
            configuration.sonyTwoListRecords = true
            try await CameraHarness.run(configuration) { harness in
                let camera = harness.camera
                #expect(camera.property(for: .iso).validSettableValues.count == 26)
                #expect(camera.property(for: .shutterSpeed).currentValue?.localizedDisplayValue == "1/125")
                // Greyed out in manual exposure: the first list is empty, the second full.
                #expect(camera.property(for: .exposureCompensation).valueSetType == .none)
                #expect(camera.property(for: .exposureCompensation).commonValue == .zero)
                try await camera.property(for: .iso).setValue(.iso400)
                #expect(harness.simulator.modelValue(of: .exposureIndex) == .uint16(400))
            }
        }

        @Test func changesOnTheCameraArriveAsPropertyChanged() async throws {
            try await CameraHarness.run(Self.configuration(.sonyStepping)) { harness in
                let camera = harness.camera
                try harness.simulator.turnDial(.exposureProgramMode, to: 3)
                try await waitUntil("aperture priority to show") {
                    camera.property(for: .autoExposureMode).commonValue == .aperturePriority
                        && camera.property(for: .exposureCompensation).valueSetType == .enumeration
                }
                try harness.simulator.turnDial(.exposureIndex, to: 1600)
                try await waitUntil("ISO 1600 to show") { camera.property(for: .iso).commonValue == .iso1600 }
                try await camera.property(for: .exposureCompensation).setValue(
                    ExposureCompensationValue(thousandthsOfAStop: -667))
                #expect(camera.property(for: .exposureCompensation).currentValue?.rawValue == .integer(-700))
                #expect(harness.simulator.modelValue(of: .exposureBiasCompensation) == .int16(-667))
            }
        }

        @Test func theShutterLeavesThePictureInTheCamerasMemoryForTheComputer() async throws {
            try await CameraHarness.run(Self.configuration(.sony)) { harness in
                let camera = harness.camera
                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }
                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                let item = try #require(files.all.first)
                #expect(item.id == PTPSonyLiveViewFrame.pictureHandle)
                #expect(item.name == "DSC00002.JPG")
                #expect(item.pixelSize == Dimensions(width: 3008, height: 2000))
                let bytes = try await camera.downloadData(of: item)
                #expect(JPEGProbe.measure(bytes).map { [$0.width, $0.height] } == [3008, 2000])
                // Read, the picture leaves the camera's memory: it was never on the card.
                try await waitUntil("the camera to let go of the picture") {
                    harness.simulator.objectHandles.count == 3
                }

                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
                #expect(files.all.count == 2)
                withExtendedLifetime(token) {}
            }
        }

        @Test func withTheCardAsDestinationThePictureIsAFileOnTheCard() async throws {
            try await CameraHarness.run(Self.configuration(.sonyStepping)) { harness in
                let camera = harness.camera
                _ = try await harness.session.transaction(
                    .sonySetExtDevicePropValue, parameters: [0xD222], sending: [0x10, 0x00])
                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }
                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                try await waitUntil("the file on the card to be reported") { !files.all.isEmpty }
                let item = try #require(files.all.first)
                #expect(item.id != PTPSonyLiveViewFrame.pictureHandle)
                #expect(try await camera.downloadData(of: item) == harness.simulator.objectData(item.id))
                withExtendedLifetime(token) {}
            }
        }

        @Test func autofocusThatFindsNoFocusTakesNoPicture() async throws {
            var configuration = Self.configuration(.sony)
            configuration.focusSucceeds = false
            try await CameraHarness.run(
                configuration, camera: PTPCamera.Configuration(focusTimeout: .milliseconds(500))
            ) { harness in
                let error = await #expect(throws: ViewfinderError.self) {
                    try await harness.camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                }
                #expect(error?.code == .notAvailable)
                #expect(error?.message.contains("could not focus") == true, "\(String(describing: error))")
                // The full press was never sent, so the shutter never opened.
                #expect(harness.simulator.lastShutterRelease == nil)
            }
        }

        @Test func liveViewComesFromTheFixedObjectAtTheConsumersPace() async throws {
            try await CameraHarness.run(Self.configuration(.sonyStepping)) { harness in
                let frames = try await harness.liveViewFrameSizes(5)
                #expect(frames.sizes.count == 5)
                #expect(frames.sizes.allSatisfy { $0 == Dimensions(width: 640, height: 424) })
                #expect(frames.framesFetched <= 6)
            }
        }

        @Test func theMovieButtonRecordsAndTheCameraSaysSo() async throws {
            try await CameraHarness.run(Self.configuration(.sony)) { harness in
                let camera = harness.camera
                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }
                try await camera.startVideoRecording()
                guard case .recording = camera.videoRecordingState else {
                    Issue.record("not recording: \(camera.videoRecordingState)")
                    return
                }
                #expect(harness.simulator.isRecordingMovie)
                try await camera.stopVideoRecording()
                #expect(camera.videoRecordingState == .notRecording)
                #expect(!harness.simulator.isRecordingMovie)
                try await waitUntil("the movie to be reported") { !files.all.isEmpty }
                #expect(files.all.first?.kind == .video)
                withExtendedLifetime(token) {}
            }
        }

        /// Over PTP/IP the housekeeping operations go out after the handshake and before the session closes, with
        /// the payloads libgphoto2 sends.
        @Test func overPTPIPTheHousekeepingOperationsOpenAndCloseTheSession() async throws {
            let log = Log()
            try await CameraHarness.run(Self.configuration(.sonyStepping, log: log)) { _ in
                #expect(log.count(containing: "housekeeping 0x9280(4) with 2 0 0 0 2 0 0 0 0 0 0 0 0 0 0 0 1 1") == 1)
            }
            #expect(log.count(containing: "housekeeping 0x9280(4) with 0 0 0 0 5 0 0 0 0 0 0 0 0 0 0 0") == 1)
        }

        /// A Sony that asks its user before letting a new computer in leaves the handshake unanswered meanwhile: a
        /// client that waits long enough connects, and is known from then on; one that does not is told what to do
        /// on the camera.
        @Test func aCameraThatAsksItsUserWaitsThenKnowsThisComputer() async throws {
            var configuration = Self.configuration(.sony)
            configuration.pairedClients = []
            configuration.pairingPrompt = .milliseconds(300)
            try await CameraHarness.run(configuration) { harness in
                #expect(harness.camera.dialectName == "Sony")
                try await harness.camera.disconnect()
                try await harness.camera.connect()
                #expect(harness.camera.connectionState == .connected)
            }
            configuration.pairingPrompt = .seconds(30)
            var transport = PTPIPTransport.Configuration()
            transport.responseTimeout = .milliseconds(500)
            try await CameraHarness.run(configuration, transport: transport, connect: false) { harness in
                let error = await #expect(throws: ViewfinderError.self) { try await harness.camera.connect() }
                #expect(error?.code == .timeout)
                #expect(
                    error?.message.contains("accept on the camera's screen") == true, "\(String(describing: error))")
            }
        }

        @Test func theSonyIdentitiesTakeTheirDataOutPhasesOverUSB() throws {
            let sony = try CameraSimulator(configuration: Self.configuration(.sony))
            let nikon = try CameraSimulator(configuration: Self.configuration(.nikon))
            for code: UInt16 in [0x9205, 0x9207, 0x9280] {
                #expect(sony.responder.expectsDataOut(code))
                #expect(!nikon.responder.expectsDataOut(code))
            }
            #expect(sony.usbIDs == (0x054C, 0x0DA7))
        }
    }
}
