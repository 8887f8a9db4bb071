import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSystem
import ViewfinderTestSupport

/// A camera whose driver speaks no PTP: a connection held in memory, built only from ViewfinderCore's public API, as
/// a driver in another package would be, around the core that keeps the lifecycle.
final class MemoryCamera: DriverBackedCamera {
    let driverCore: CameraDriverCore<MemoryConnection>
    /// Every connection opened, in order.
    let opened = Locked<[MemoryConnection]>([])

    init(functionality: CameraFunctionality = [.stillCapture, .propertyControl, .videoRecording, .liveView]) {
        let opened = opened
        driverCore = CameraDriverCore(
            location: "memory", configuration: .init(liveViewDecoder: SizeOnlyDecoder())
        ) { context in
            let connection = MemoryConnection(context: context, functionality: functionality)
            opened.withLock { $0.append(connection) }
            return connection
        }
    }

    /// The connection opened last.
    var connection: MemoryConnection? { opened.withLock { $0.last } }
}

/// One connection of the memory driver: an ISO property it shows as set, pictures that appear as files, live view
/// images of a fixed size, and an end the test chooses.
final class MemoryConnection: CameraDriverConnection {
    let context: CameraDriverContext
    let functionality: CameraFunctionality
    private let ending = AsyncStream<ViewfinderError?>.makeStream()
    private let ended = Locked<ViewfinderError?>(nil)
    /// The errors the core ended the connection with.
    let endings = Locked<[ViewfinderError]>([])
    static let isoValues = [ISOValue.iso100, .iso400].map {
        TypedCameraPropertyValue($0, rawValue: .integer(Int64($0.numericValue ?? 0)))
    }

    init(context: CameraDriverContext, functionality: CameraFunctionality) {
        self.context = context
        self.functionality = functionality
        context.update(
            .iso, currentValue: Self.isoValues[0], validSettableValues: CameraPropertySettableValues(Self.isoValues))
    }

    var deviceInfo: CameraDeviceInfo {
        CameraDeviceInfo(manufacturer: "Memory", model: "M1", serialNumber: "1", version: "1.0")
    }

    var driverDescription: String { "over memory" }

    var endingError: ViewfinderError? { ended.withLock { $0 } }

    func run() async -> ViewfinderError? {
        for await error in ending.stream {
            return error
        }
        return nil
    }

    /// Ends the connection as a camera that went away would.
    func fail(_ error: ViewfinderError) {
        ended.withLock { $0 = error }
        ending.continuation.yield(error)
    }

    func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        if let error = endingError {
            throw ViewfinderError(.notConnected, "the connection ended: \(error.message)")
        }
        let shown = Self.isoValues.first { $0.rawValue == rawValue }
        context.update(.iso, currentValue: shown, validSettableValues: CameraPropertySettableValues(Self.isoValues))
    }

    func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {
        context.reportNewFile(
            CameraFileItem(id: 1, storageID: 1, parentID: nil, name: "M0001.JPG", kind: .jpegImage, byteCount: 3))
    }

    func startLiveView() async throws {}

    func liveViewImage() async throws -> [UInt8] { [0xFF, 0xD8, 0xFF, 0xD9] }

    func startRecording() async throws { context.recordingStarted() }

    func stopRecording() async throws { context.recordingStopped() }

    func close() async { ending.continuation.finish() }

    func connectionEnded(with error: ViewfinderError) {
        endings.withLock { $0.append(error) }
    }
}

/// Reads no pixels: every image is 4x3.
struct SizeOnlyDecoder: LiveViewImageDecoder {
    func decode(_ image: [UInt8], settings: LiveViewSettings) throws -> (pixelSize: Dimensions, pixels: PixelBuffer?) {
        (Dimensions(width: 4, height: 3), nil)
    }
}

@Suite struct CameraDriverCoreTests {
    @Test func aDriverOfItsOwnIsACameraWithPropertiesFilesAndRecording() async throws {
        let camera = MemoryCamera()
        let states = Locked<[CameraConnectionState]>([])
        let token = camera.addConnectionStateObserver { state in states.withLock { $0.append(state) } }
        try await camera.connect()
        #expect(camera.deviceInfo?.model == "M1")
        #expect(camera.supportedFunctionality.contains(.videoRecording))
        let iso = camera.property(for: .iso)
        #expect(iso.commonValue == .iso100)
        try await iso.setValue(.iso400)
        #expect(iso.commonValue == .iso400)

        let files = Locked<[String]>([])
        let fileToken = camera.addNewFileObserver { item in files.withLock { $0.append(item.name) } }
        try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
        #expect(files.withLock { $0 } == ["M0001.JPG"])

        try await camera.startVideoRecording()
        #expect(camera.videoRecordingState != .notRecording)
        await #expect(throws: ViewfinderError.self) { try await camera.startVideoRecording() }
        try await camera.stopVideoRecording()
        #expect(camera.videoRecordingState == .notRecording)

        try await camera.disconnect()
        #expect(states.withLock { $0 } == [.connecting, .connected, .disconnecting, .notConnected])
        #expect(camera.lastDisconnection == .requested)
        #expect(iso.currentValue == nil)
        #expect(camera.connection?.endings.withLock { $0.count } == 1)
        withExtendedLifetime((token, fileToken)) {}
    }

    @Test func aCameraThatWentAwayFailsLaterCallsWithWhy() async throws {
        let camera = MemoryCamera()
        try await camera.connect()
        try await camera.startVideoRecording()
        let connection = try #require(camera.connection)
        // The observers hear of the end once the connection's values are forgotten; connectionState says so before.
        let ended = Locked(false)
        let token = camera.addConnectionStateObserver { state in
            if state == .notConnected { ended.withLock { $0 = true } }
        }
        connection.fail(ViewfinderError(.timeout, "the camera stopped answering"))
        try await waitUntil("the observers to hear the camera is not connected") { ended.withLock { $0 } }
        withExtendedLifetime(token) {}
        #expect(camera.lastDisconnection?.error?.code == .timeout)
        #expect(camera.videoRecordingState == .notRecording)
        #expect(camera.property(for: .iso).currentValue == nil)
        let error = await #expect(throws: ViewfinderError.self) {
            try await camera.setRawValue(.integer(400), forPropertyNamed: "iso")
        }
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("went away") == true, "\(String(describing: error))")
    }

    @Test func aConnectionThatEndedTouchesNothingOfTheNext() async throws {
        let camera = MemoryCamera()
        try await camera.connect()
        let first = try #require(camera.connection)
        try await camera.disconnect()
        try await camera.connect()
        let second = try #require(camera.connection)
        #expect(first !== second)
        let files = Locked<[String]>([])
        let token = camera.addNewFileObserver { item in files.withLock { $0.append(item.name) } }
        try await first.takePicture(engagingAutoFocus: false)
        first.context.recordingStarted()
        #expect(files.withLock { $0 }.isEmpty)
        #expect(camera.videoRecordingState == .notRecording)
        try await second.takePicture(engagingAutoFocus: false)
        #expect(files.withLock { $0 } == ["M0001.JPG"])
        withExtendedLifetime(token) {}
        try await camera.disconnect()
    }

    @Test func whatTheConnectionCannotDoSaysHowItSpeaks() async throws {
        let camera = MemoryCamera(functionality: [.propertyControl])
        try await camera.connect()
        let error = await #expect(throws: ViewfinderError.self) {
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
        }
        #expect(error?.code == .notAvailable)
        #expect(
            error?.message.contains("M1 offers no way to do it over memory") == true, "\(String(describing: error))")
        try await camera.disconnect()
    }

    @Test func liveViewFramesAreTheConnectionsImagesThroughTheDecoder() async throws {
        let camera = MemoryCamera()
        try await camera.connect()
        let frames = Locked<[LiveViewFrame]>([])
        let cancellable = camera.liveViewPublisher(options: [.skipImageDecoding: true])
            .sinkWithReadyHandler { _ in
            } receiveValue: { frame, ready in
                frames.withLock { $0.append(frame) }
                ready()
            }
        try await waitUntil("three frames") { frames.withLock { $0.count } >= 3 }
        cancellable.cancel()
        let seen = frames.withLock { $0 }
        #expect(seen.prefix(3).map(\.sequenceNumber) == [1, 2, 3])
        #expect(seen.allSatisfy { $0.pixelSize == Dimensions(width: 4, height: 3) && $0.jpegData.count == 4 })
        try await camera.disconnect()
    }
}
