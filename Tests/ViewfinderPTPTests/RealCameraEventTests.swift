import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// Events as real cameras send them: Nikon bodies that hold them for CheckEvent, cameras that report a picture
    /// with ObjectAdded alone, and handlers that must not hold up the end of a capture.
    @Suite(.timeLimit(.minutes(3))) struct RealCameraEventTests {
        /// A Nikon that holds its events for CheckEvent: the client asks for them, and hears of a dial turned on the
        /// camera and of its captures just as over the event connection.
        @Test func aNikonThatHoldsItsEventsIsAskedForThem() async throws {
            var configuration = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)
            configuration.nikonEventsByCheckEvent = true
            try await CameraHarness.run(configuration) { harness in
                let camera = harness.camera
                #expect(try harness.session.deviceInfo.supports(.nikonCheckEvent))
                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }
                try harness.simulator.turnDial(.exposureIndex, to: 1600)
                try await waitUntil("the new ISO to be heard of") {
                    camera.property(for: .iso).commonValue == ISOValue(1600)
                }
                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
                try await waitUntil("the new file to be reported") { !files.all.isEmpty }
                #expect(files.all.first?.name == "DSC_0001.JPG")
                withExtendedLifetime(token) {}
            }
        }

        @Test func checkEventAnswersDecode() throws {
            #expect(try NikonDialect.events(inCheckEventAnswer: []) == [])
            #expect(try NikonDialect.events(inCheckEventAnswer: [0, 0]) == [])
            let events = try NikonDialect.events(inCheckEventAnswer: [
                2, 0, 0x02, 0x40, 7, 0, 0, 0, 0x06, 0x40, 0x0F, 0x50, 0, 0,
            ])
            #expect(events.map(\.code) == [.objectAdded, .devicePropChanged])
            #expect(events.map(\.parameters) == [[7], [0x500F]])
            #expect(throws: ViewfinderError.self) {
                try NikonDialect.events(inCheckEventAnswer: [3, 0, 0x02, 0x40, 7, 0, 0, 0])
            }
        }

        /// A camera that reports a new picture with ObjectAdded alone, and does not list CaptureComplete: the
        /// capture completes on the picture's ObjectAdded.
        @Test func aCameraWithoutCaptureCompleteFinishesOnTheNewPicture() async throws {
            var configuration = CameraSimulator.Configuration(sampleImageCount: 0)
            configuration.sendsCaptureComplete = false
            try await CameraHarness.run(configuration) { harness in
                #expect(try !harness.session.deviceInfo.eventsSupported.contains(.captureComplete))
                try await harness.camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
                try await harness.camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
                #expect(harness.simulator.objectHandles.filter { harness.simulator.objectData($0) != nil }.count == 2)
            }
        }

        /// A camera whose card fills during the capture says so with StoreFull: the capture fails at once with what
        /// to do, rather than waiting out its timeout for a picture that will not come.
        @Test func aStoreFullEventFailsTheCaptureAtOnce() async throws {
            let deviceInfo = PTPDeviceInfo(
                operationsSupported: [.getDeviceInfo, .openSession, .closeSession, .initiateCapture],
                eventsSupported: [.objectAdded, .captureComplete, .storeFull], devicePropertiesSupported: [],
                captureFormats: [.exifJPEG], imageFormats: [.exifJPEG], manufacturer: "Scripted", model: "Full Card",
                deviceVersion: "1", serialNumber: "1")
            let responder = try ScriptedResponder(deviceInfo: deviceInfo) { peer in
                let id = try peer.expectRequest(.initiateCapture).transactionID
                try peer.respond(.ok, id)
                try peer.sendEvent(.storeFull, parameters: [0x0001_0001])
                _ = try? peer.expectRequest(.closeSession)
            }
            var configuration = PTPCamera.Configuration()
            configuration.captureTimeout = .seconds(600)
            let camera = PTPCamera(
                host: "127.0.0.1", transport: .init(port: responder.port, clientName: "tests"),
                configuration: configuration)
            try await camera.connect()
            let error = await #expect(throws: ViewfinderError.self) {
                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
            }
            #expect(error?.code == .notAvailable)
            #expect(error?.message.contains("card became full") == true, "\(String(describing: error))")
            try await camera.disconnect()
        }

        /// A camera that lists CaptureComplete and never sends it: the capture completes a moment after the picture's
        /// ObjectAdded rather than failing after the capture timeout.
        @Test func aCameraThatNeverSendsTheCaptureCompleteItListsStillFinishes() async throws {
            var configuration = CameraSimulator.Configuration(sampleImageCount: 0)
            configuration.sendsCaptureComplete = false
            configuration.deviceInfoChanges = { $0.eventsSupported.append(.captureComplete) }
            var camera = PTPCamera.Configuration()
            camera.captureTimeout = .seconds(60)
            try await CameraHarness.run(configuration, camera: camera) { harness in
                try await harness.camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
                #expect(harness.simulator.objectHandles.filter { harness.simulator.objectData($0) != nil }.count == 1)
            }
        }
    }
}
