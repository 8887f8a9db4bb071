import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// The shutter, new-file notifications and video recording of the simulated camera.
    @Suite(.timeLimit(.minutes(3))) struct PTPIPCameraCaptureTests {
        @Test func theShutterTakesAPictureThatNewFileObserversCanDownload() async throws {
            try await CameraHarness.run(.init(sampleImageCount: 0)) { harness in
                let camera = harness.camera
                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }
                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                try await waitUntil("the new file to be reported") { !files.all.isEmpty }
                let item = try #require(files.all.first)
                #expect(item.name == "DSC_0001.JPG")
                #expect(item.kind == .jpegImage)
                #expect(item.pixelSize == Dimensions(width: 3008, height: 2000))
                let bytes = try await camera.downloadData(of: item)
                #expect(bytes == harness.simulator.objectData(item.id))
                #expect(bytes.prefix(2) == [0xFF, 0xD8])

                // Captures follow one another.
                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
                try await waitUntil("the second file to be reported") { files.all.count == 2 }
                #expect(files.all.map(\.name) == ["DSC_0001.JPG", "DSC_0002.JPG"])
                withExtendedLifetime(token) {}
            }
        }

        /// Each picture the camera writes to its card, whoever pressed the shutter, comes with a preview: the camera's
        /// thumbnail of it, valid while the connection that offered it lasts.
        @Test func eachNewPictureComesWithAPreview() async throws {
            for identity in [CameraSimulator.Identity.nikon, .canon] {
                try await CameraHarness.run(.init(identity: identity, sampleImageCount: 0)) { harness in
                    let camera = harness.camera
                    let previews = Observed<CameraShotPreview>()
                    let token = camera.addShotPreviewObserver { previews.append($0) }
                    try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
                    try await waitUntil("the preview to be offered") { previews.all.count == 1 }
                    let preview = try #require(previews.all.first)
                    #expect(preview.isValid)
                    #expect(preview.file.kind == .jpegImage, "\(identity)")
                    let jpeg = try await preview.fetchPreview()
                    #expect(jpeg.prefix(2) == [0xFF, 0xD8], "\(identity)")
                    #expect(jpeg.count < Int(preview.file.byteCount ?? 0), "\(identity)")
                    #expect(!preview.isFetching)

                    // The camera's own button makes a preview too.
                    try await waitUntil("the camera to take another picture") {
                        (try? harness.simulator.pressShutterButton()) != nil
                    }
                    try await waitUntil("the second preview to be offered") { previews.all.count == 2 }
                    #expect(previews.all[1].fileNameHint != preview.fileNameHint)

                    try await camera.disconnect()
                    #expect(!preview.isValid)
                    let error = await #expect(throws: ViewfinderError.self) { _ = try await preview.fetchPreview() }
                    #expect(error?.code == .notAvailable, "\(identity)")
                    withExtendedLifetime(token) {}
                }
            }
        }

        @Test func aNikonFocusesWithAfDriveAndTakesNoPictureWithoutFocus() async throws {
            var configuration = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)
            try await CameraHarness.run(configuration) { harness in
                let files = Observed<CameraFileItem>()
                let token = harness.camera.addNewFileObserver { files.append($0) }
                try await harness.camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                try await waitUntil("the new file to be reported") { files.all.count == 1 }
                withExtendedLifetime(token) {}
            }
            configuration.focusSucceeds = false
            try await CameraHarness.run(configuration) { harness in
                let camera = harness.camera
                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }
                let error = await #expect(throws: ViewfinderError.self) {
                    try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                }
                #expect(error?.code == .notAvailable)
                #expect(error?.message.contains("could not focus") == true, "\(String(describing: error))")
                #expect(error?.responseCode == PTPResponseCode.nikonOutOfFocus.rawValue)
                // The camera's shutter never opened: the call ended without asking for a picture.
                #expect(harness.simulator.lastShutterRelease == nil, "a picture was taken without focus")
                // Without autofocus the picture is taken whatever the focus.
                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
                try await waitUntil("the new file to be reported") { files.all.count == 1 }
                withExtendedLifetime(token) {}
            }
        }

        @Test func overlappingCapturesAreRefusedAsBusy() async throws {
            // A long exposure keeps the first capture under way.
            try await CameraHarness.run(.init(sampleImageCount: 0)) { harness in
                let camera = harness.camera
                try await camera.property(for: .shutterSpeed).setValue(ShutterSpeedValue(seconds: 1)!)
                async let first: Void = camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                try await waitUntil("the first capture to begin") { try harness.capture.isWaiting }
                let error = await #expect(throws: ViewfinderError.self) {
                    try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                }
                #expect(error?.code == .deviceBusy)
                try await first
            }
        }

        @Test func aCaptureTheCameraNeverCompletesTimesOut() async throws {
            let configuration = PTPCamera.Configuration(captureTimeout: .milliseconds(200))
            try await CameraHarness.run(.init(sampleImageCount: 0), camera: configuration) { harness in
                let camera = harness.camera
                // A 30-second exposure outlasts the timeout.
                try await camera.property(for: .shutterSpeed).setValue(ShutterSpeedValue(seconds: 30)!)
                let error = await #expect(throws: ViewfinderError.self) {
                    try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
                }
                #expect(error?.code == .timeout)
                #expect(try !harness.capture.isWaiting)
            }
        }

        @Test func videoRecordingReportsItsStateAndTimer() async throws {
            try await CameraHarness.run(.init(identity: .nikon, sampleImageCount: 0)) { harness in
                let camera = harness.camera
                let states = Observed<VideoRecordingState>()
                let cancellable = camera.videoRecordingStatePublisher().sink { states.append($0) }
                #expect(camera.videoRecordingState == .notRecording)

                try await camera.startVideoRecording()
                guard case .recording(.countingUp?) = camera.videoRecordingState else {
                    Issue.record("the camera should be recording with a timer, not \(camera.videoRecordingState)")
                    return
                }
                // Recording needs live view on the camera.
                #expect(try await harness.session.propertyValue(.nikonLiveViewStatus, of: .uint8) == .uint8(1))
                try await waitUntil("the timer to tick") {
                    states.all.contains(.recording(timer: .countingUp(.seconds(1))))
                }
                let again = await #expect(throws: ViewfinderError.self) { try await camera.startVideoRecording() }
                #expect(again?.code == .alreadyRunning)

                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }
                try await camera.stopVideoRecording()
                #expect(camera.videoRecordingState == .notRecording)
                #expect(states.all.first == .notRecording)
                #expect(states.all.last == .notRecording)
                // The movie is on the card once the camera has written it.
                try await waitUntil("the movie to be reported") { !files.all.isEmpty }
                #expect(files.all.map(\.kind) == [.video] && files.all.first?.name.hasSuffix(".MOV") == true)
                withExtendedLifetime(token) {}
                // Live view was on only for the recording, so it is off again.
                #expect(try await harness.session.propertyValue(.nikonLiveViewStatus, of: .uint8) == .uint8(0))
                let notRecording = await #expect(throws: ViewfinderError.self) { try await camera.stopVideoRecording() }
                #expect(notRecording?.code == .notAvailable)
                cancellable.cancel()
            }
        }

        @Test func aRecordingEndsWithTheConnection() async throws {
            try await CameraHarness.run(.init(identity: .nikon, sampleImageCount: 0)) { harness in
                let camera = harness.camera
                try await camera.startVideoRecording()
                let states = Observed<VideoRecordingState>()
                let token = camera.addVideoRecordingStateObserver { states.append($0) }
                try await camera.disconnect()
                #expect(camera.videoRecordingState == .notRecording)
                #expect(states.all.last == .notRecording)
                withExtendedLifetime(token) {}
            }
        }
    }
}
