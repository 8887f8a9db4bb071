import Dispatch
import Testing
import ViewfinderCore
import ViewfinderSystem

@Suite struct CameraConnectionTests {
    @Test func connectingAndDisconnectingAreObserved() async throws {
        let camera = FakeCamera()
        let states = Locked<[CameraConnectionState]>([])
        let token = camera.addConnectionStateObserver { state in states.withLock { $0.append(state) } }
        #expect(camera.deviceInfo == nil)
        #expect(camera.supportedFunctionality.isEmpty)
        try await camera.connect()
        try await camera.connect()
        #expect(camera.connectionState == .connected)
        #expect(camera.deviceInfo?.model == "Fake")
        #expect(camera.supportedFunctionality.contains([.stillCapture, .propertyControl]))
        #expect(camera.lastDisconnection == nil)
        try await camera.disconnect()
        #expect(states.withLock { $0 } == [.connecting, .connected, .disconnecting, .notConnected])
        #expect(camera.lastDisconnection?.wasExpected == true)
        #expect(camera.property(for: .iso).currentValue == nil)
        withExtendedLifetime(token) {}
    }

    @Test func anUnexpectedDisconnectionCarriesItsError() async throws {
        let camera = try await connectedCamera()
        camera.loseConnection(ViewfinderError(.timeout, "the event channel was silent for 10 s"))
        let disconnection = try #require(camera.lastDisconnection)
        #expect(!disconnection.wasExpected)
        #expect(disconnection.error?.code == .timeout)
        #expect(camera.connectionState == .notConnected)
    }

    @Test func completionHandlersRunOnTheChosenQueue() async throws {
        let camera = FakeCamera()
        let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "camera completions")
        queue.setSpecific(key: key, value: 7)
        let connected: Int? = await withCheckedContinuation { continuation in
            camera.connect(completionQueue: queue) { error in
                #expect(error == nil)
                continuation.resume(returning: DispatchQueue.getSpecific(key: key))
            }
        }
        #expect(connected == 7)
        #expect(camera.connectionState == .connected)
        let shutterError: (any Error)? = await withCheckedContinuation { continuation in
            camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true) { continuation.resume(returning: $0) }
        }
        #expect(shutterError == nil)
        #expect(camera.shotsTaken == 1)
        await withCheckedContinuation { continuation in
            camera.disconnect { _ in continuation.resume() }
        }
        let failure: (any Error)? = await withCheckedContinuation { continuation in
            camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false) { continuation.resume(returning: $0) }
        }
        #expect((failure as? ViewfinderError)?.code == .notConnected)
    }

    @Test func recordingStateIsObserved() async throws {
        let camera = try await connectedCamera()
        let states = Locked<[VideoRecordingState]>([])
        let token = camera.addVideoRecordingStateObserver { state in states.withLock { $0.append(state) } }
        try await camera.startVideoRecording()
        camera.setRecordingState(.recording(timer: .countingUp(.seconds(65))))
        try await camera.stopVideoRecording()
        #expect(
            states.withLock { $0 } == [
                .recording(timer: .countingUp(.zero)), .recording(timer: .countingUp(.seconds(65))), .notRecording,
            ])
        withExtendedLifetime(token) {}
    }
}

@Suite struct CameraPropertyStoreTests {
    @Test func oneInstancePerIdentifier() async throws {
        let camera = try await connectedCamera()
        #expect(camera.property(for: .iso) === camera.property(for: .iso))
        #expect(camera.property(for: .shutterSpeed) === camera.property(for: .shutterSpeed))
        let sameName = CameraPropertyIdentifier<CameraControlValue>(name: "iso", localizedDisplayName: "ISO Control")
        #expect(camera.property(for: sameName).currentValue == nil)
        #expect(camera.property(for: sameName) === camera.property(for: sameName))
        #expect(camera.properties.propertyNames.contains("iso"))
        #expect(camera.property(for: .iso).identifier == .iso)
        #expect(camera.property(for: .iso).localizedDisplayName == "ISO")
    }

    @Test func everyStandardIdentifierHasItsOwnName() {
        let names = [
            CameraPropertyIdentifier.iso.name, CameraPropertyIdentifier.shutterSpeed.name,
            CameraPropertyIdentifier.aperture.name, CameraPropertyIdentifier.exposureCompensation.name,
            CameraPropertyIdentifier.whiteBalance.name, CameraPropertyIdentifier.focusMode.name,
            CameraPropertyIdentifier.autoExposureMode.name, CameraPropertyIdentifier.driveMode.name,
            CameraPropertyIdentifier.batteryLevel.name, CameraPropertyIdentifier.shotsAvailable.name,
        ]
        #expect(Set(names).count == 10)
    }
}

@Suite struct CameraFileAccessTests {
    @Test func newPicturesAreAnnouncedAndDownloaded() async throws {
        let camera = try await connectedCamera()
        let files = try #require(camera.fileAccess)
        let announced = Locked<[String]>([])
        let token = files.addNewFileObserver { item in announced.withLock { $0.append(item.name) } }
        try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
        #expect(announced.withLock { $0 } == ["IMG_1.JPG"])
        let storage = try #require(try await files.storages().first)
        let item = try #require(try await files.contents(of: nil, in: storage).first)
        let progress = Locked<[Double]>([])
        let bytes = try await files.downloadData(of: item) { step in
            progress.withLock { $0.append(step.fractionCompleted) }
        }
        #expect(bytes == Array(repeating: 1, count: 100))
        #expect(progress.withLock { $0 } == [0.64, 1])
        #expect(try await files.thumbnail(of: item).count == 8)
        withExtendedLifetime(token) {}
    }

    @Test func downloadsIntoMemoryAreBounded() async throws {
        let camera = try await connectedCamera()
        let item = camera.addFile(named: "BIG.JPG", bytes: Array(repeating: 9, count: 200))
        let files = try #require(camera.fileAccess)
        #expect(
            await errorCode { _ = try await files.downloadData(of: item, maximumByteCount: 100) } == .invalidArgument)
        #expect(try await files.downloadData(of: item, maximumByteCount: 200).count == 200)
    }

    @Test func deletedFilesAreGone() async throws {
        let camera = try await connectedCamera()
        let item = camera.addFile(named: "A.JPG", bytes: [1, 2, 3])
        let files = try #require(camera.fileAccess)
        try await files.delete(item)
        #expect(try await files.contents(of: nil, in: FakeCamera.storage).isEmpty)
        #expect(await errorCode { try await files.delete(item) } == .notFound)
    }
}
