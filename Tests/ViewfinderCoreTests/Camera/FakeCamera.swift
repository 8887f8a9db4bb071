import ViewfinderCore
import ViewfinderSystem

/// A camera held in memory, built only from ViewfinderCore's public API, as a backend would be.
///
/// Tests install properties with their values, choose how the "camera" answers a set, and trigger what a real
/// camera would do by itself: report a value, drop the connection.
final class FakeCamera: Camera, CameraFileAccess, CameraPropertyBackend {
    /// How the camera answers a set.
    enum SetBehaviour: Sendable {
        /// Reports the new value before the set returns.
        case reflect
        /// Reports the new value from another task, after the set returns.
        case reflectLater
        /// Accepts the set and never reports the value.
        case ignore
        /// Refuses the set.
        case fail(ViewfinderError)
    }

    private struct State {
        var connectionState = CameraConnectionState.notConnected
        var lastDisconnection: CameraDisconnection?
        var recordingState = VideoRecordingState.notRecording
        var setBehaviour = SetBehaviour.reflect
        var reflectors: [String: @Sendable (CameraPropertyRawValue) -> Void] = [:]
        /// What a step of a stepping property does, by the property's name.
        var steppers: [String: @Sendable (Int) -> Void] = [:]
        var shotsTaken = 0
        var files: [(item: CameraFileItem, bytes: [UInt8])] = []
    }

    let properties: CameraPropertyStore
    /// The live view the camera's publisher fetches from.
    let liveView = FakeLiveView()
    let liveViewPublisher: LiveViewPublisher
    /// Every raw value sent to the camera, in order, with the property's name.
    let sentValues: AsyncStream<(name: String, rawValue: CameraPropertyRawValue)>
    private let sentValuesContinuation: AsyncStream<(name: String, rawValue: CameraPropertyRawValue)>.Continuation
    private let state = Locked(State())
    private let connectionObservers = CameraObserverRegistry<CameraConnectionState>()
    private let recordingObservers = CameraObserverRegistry<VideoRecordingState>()
    private let newFileObservers = CameraObserverRegistry<[CameraFileItem]>(keepingNewest: 256)
    static let storage = CameraStorage(
        id: 0x0001_0001, storageDescription: "SD card", volumeLabel: "FAKE", capacityByteCount: 1 << 30,
        freeByteCount: 1 << 29, isWritable: true)

    init(
        setValueTimeout: Duration = .seconds(10),
        liveViewConfiguration: LiveViewPublisher.Configuration = LiveViewPublisher.Configuration()
    ) {
        properties = CameraPropertyStore(setValueTimeout: setValueTimeout)
        liveViewPublisher = LiveViewPublisher(backend: liveView, configuration: liveViewConfiguration)
        (sentValues, sentValuesContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    // MARK: Test controls

    var setBehaviour: SetBehaviour {
        get { state.withLock { $0.setBehaviour } }
        set { state.withLock { $0.setBehaviour = newValue } }
    }

    var shotsTaken: Int { state.withLock { $0.shotsTaken } }

    /// Gives the camera a property with `values`, showing `current`; a set shows the value with the raw value sent.
    func install<Value>(
        _ identifier: CameraPropertyIdentifier<Value>,
        values: CameraPropertySettableValues<Value>,
        current: TypedCameraPropertyValue<Value>?
    ) {
        let property = self.property(for: identifier)
        property.update(currentValue: current, validSettableValues: values)
        state.withLock { state in
            state.reflectors[identifier.name] = { [weak property] rawValue in
                property?.update(currentValue: values.first { $0.rawValue == rawValue })
            }
        }
    }

    /// Gives the camera a property it steps through `ladder` without listing it, showing `ladder[current]`; a step
    /// past either end leaves the value as it is, as a camera at its last value does.
    func installStepping<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, ladder: [TypedCameraPropertyValue<Value>], current: Int
    ) {
        let property = self.property(for: identifier)
        property.update(currentValue: ladder[current], validSettableValues: .stepping)
        let position = Locked(current)
        state.withLock { state in
            state.steppers[identifier.name] = { [weak property] steps in
                let shown = position.withLock { position in
                    position = min(max(position + steps, 0), ladder.count - 1)
                    return ladder[position]
                }
                property?.update(currentValue: shown)
            }
        }
    }

    /// Gives the camera a property with a list of values.
    func install<Value>(
        _ identifier: CameraPropertyIdentifier<Value>,
        values: [TypedCameraPropertyValue<Value>],
        current: TypedCameraPropertyValue<Value>?
    ) {
        install(identifier, values: CameraPropertySettableValues(values), current: current)
    }

    /// Installs the exposure properties a typical camera has, set to ISO 400, 1/250, f/8 and 0 EV.
    func installStandardProperties() {
        let isos = [ISOValue.automatic, .iso100, .iso200, .iso400, .iso800, .iso1600, .iso3200, .iso6400, .iso25600]
        let isoValues = isos.map { TypedCameraPropertyValue($0, rawValue: .integer(Int64($0.numericValue ?? 0xFFFF))) }
        install(.iso, values: isoValues, current: isoValues[3])
        let speeds: [Int64] = [300_000, 25_000, 3333, 500, 80, 40, 20, 1]
        let speedValues = speeds.map {
            TypedCameraPropertyValue(ShutterSpeedValue(tenThousandthsOfASecond: $0)!, rawValue: .integer($0))
        }
        install(.shutterSpeed, values: speedValues, current: speedValues[5])
        let apertures = [140, 280, 560, 800, 2200]
        let apertureValues = apertures.map {
            TypedCameraPropertyValue(ApertureValue(hundredthsOfFNumber: $0)!, rawValue: .integer(Int64($0)))
        }
        install(.aperture, values: apertureValues, current: apertureValues[3])
        let compensations = (-3...3).map { $0 * 333 + ($0 > 0 ? 1 : 0) }
        let compensationValues = compensations.map {
            TypedCameraPropertyValue(ExposureCompensationValue(thousandthsOfAStop: $0), rawValue: .integer(Int64($0)))
        }
        install(.exposureCompensation, values: compensationValues, current: compensationValues[3])
    }

    /// Reports a value the camera changed by itself, as after a turn of its dial.
    func cameraReports<Value>(_ identifier: CameraPropertyIdentifier<Value>, _ value: TypedCameraPropertyValue<Value>?)
    {
        property(for: identifier).update(currentValue: value)
    }

    /// Drops the connection as a vanished peer would.
    func loseConnection(_ error: ViewfinderError) {
        state.withLock { state in
            state.connectionState = .notConnected
            state.lastDisconnection = CameraDisconnection(error: error)
        }
        properties.resetAll(failingRequestsWith: error)
        connectionObservers.notify(.notConnected)
    }

    /// Puts a file on the card, as a capture would.
    @discardableResult
    func addFile(named name: String, bytes: [UInt8]) -> CameraFileItem {
        let item = state.withLock { state in
            let item = CameraFileItem(
                id: UInt32(state.files.count + 1), storageID: Self.storage.id, parentID: nil, name: name,
                kind: .jpegImage, byteCount: UInt64(bytes.count))
            state.files.append((item, bytes))
            return item
        }
        newFileObservers.notify([item])
        return item
    }

    // MARK: Camera

    var connectionState: CameraConnectionState { state.withLock { $0.connectionState } }
    var lastDisconnection: CameraDisconnection? { state.withLock { $0.lastDisconnection } }

    var deviceInfo: CameraDeviceInfo? {
        connectionState == .connected
            ? CameraDeviceInfo(manufacturer: "Viewfinder", model: "Fake", serialNumber: "0001", version: "1.0") : nil
    }

    var supportedFunctionality: CameraFunctionality {
        connectionState == .connected ? [.stillCapture, .videoRecording, .fileAccess, .propertyControl] : []
    }

    func addConnectionStateObserver(_ observer: @escaping @Sendable (CameraConnectionState) -> Void)
        -> ObservationToken
    {
        connectionObservers.addObserver(observer)
    }

    func connect() async throws {
        guard transition(from: .notConnected, to: .connecting) else { return }
        installStandardProperties()
        _ = transition(from: .connecting, to: .connected)
    }

    func disconnect() async throws {
        guard transition(from: .connected, to: .disconnecting) else { return }
        state.withLock { $0.lastDisconnection = .requested }
        properties.resetAll(failingRequestsWith: ViewfinderError(.disconnected, "the camera was disconnected"))
        _ = transition(from: .disconnecting, to: .notConnected)
    }

    private func transition(from old: CameraConnectionState, to new: CameraConnectionState) -> Bool {
        let changed = state.withLock { state in
            guard state.connectionState == old else { return false }
            state.connectionState = new
            return true
        }
        if changed {
            connectionObservers.notify(new)
        }
        return changed
    }

    func property<Value>(for identifier: CameraPropertyIdentifier<Value>) -> TypedCameraProperty<Value> {
        properties.property(for: identifier, backend: self)
    }

    var knownPropertyIdentifiers: Set<AnyCameraPropertyIdentifier> { properties.reportedIdentifiers }

    func populatedProperties(in category: CameraPropertyCategory) -> [any CameraProperty] {
        properties.populatedProperties(in: category)
    }

    func invokeOneShotShutterExplicitlyEngagingAutoFocus(_ engageAutoFocus: Bool) async throws {
        let shot = try state.withLock { state in
            guard state.connectionState == .connected else {
                throw ViewfinderError(.notConnected, "the camera is not connected")
            }
            state.shotsTaken += 1
            return state.shotsTaken
        }
        addFile(named: "IMG_\(shot).JPG", bytes: Array(repeating: UInt8(shot), count: 100))
    }

    func engageAutoFocus() async throws {
        throw ViewfinderError(.notAvailable, "the fake camera's shutter button cannot be held half down")
    }

    func disengageAutoFocus() async throws {
        throw ViewfinderError(.notAvailable, "the fake camera's shutter button cannot be held half down")
    }

    var autoFocusEngaged: Bool { false }

    func addAutoFocusEngagedObserver(_ observer: @escaping @Sendable (Bool) -> Void) -> ObservationToken {
        ObservationToken(remove: {})
    }

    var focusInfo: FocusInfo? { nil }

    func addFocusInfoObserver(_ observer: @escaping @Sendable (FocusInfo?) -> Void) -> ObservationToken {
        ObservationToken(remove: {})
    }

    func touchAutoFocus(at point: LiveViewPoint) async throws {
        throw ViewfinderError(.notAvailable, "the fake camera cannot focus at a point")
    }

    func engageShutter() async throws {
        throw ViewfinderError(.notAvailable, "the fake camera's shutter cannot be held")
    }

    func disengageShutter() async throws {
        throw ViewfinderError(.notAvailable, "the fake camera's shutter cannot be held")
    }

    func updateClock(to time: CameraClockTime) async throws {
        throw ViewfinderError(.notAvailable, "the fake camera has no clock")
    }

    func readClock() async throws -> CameraClockTime {
        throw ViewfinderError(.notAvailable, "the fake camera has no clock")
    }

    func driveFocus(_ amount: FocusDriveAmount, towards direction: FocusDriveDirection) async throws {
        throw ViewfinderError(.notAvailable, "the fake camera has no focus motor")
    }

    func disconnect(poweringOffCamera: Bool) async throws {
        guard !poweringOffCamera else { throw ViewfinderError(.notAvailable, "the fake camera has no power switch") }
        try await disconnect()
    }

    var supportedCommandCategories: CameraCommandCategories { [] }

    var currentCommandCategories: CameraCommandCategories { [] }

    func switchToCommandCategories(_ categories: CameraCommandCategories) async throws {
        throw ViewfinderError(.notAvailable, "the fake camera has no command categories")
    }

    func setLiveViewZoomLevel(_ level: LiveViewZoomLevel) async throws {
        throw ViewfinderError(.notAvailable, "the fake camera's live view has no zoom")
    }

    var liveViewZoomLevel: LiveViewZoomLevel? { nil }

    var liveViewZoomLevels: [LiveViewZoomLevel] { [] }

    func addLiveViewZoomLevelObserver(_ observer: @escaping @Sendable (LiveViewZoomLevel?) -> Void)
        -> ObservationToken
    {
        ObservationToken(remove: {})
    }

    func setLiveViewZoomCenter(_ center: LiveViewPoint) async throws {
        throw ViewfinderError(.notAvailable, "the fake camera's live view has no zoom")
    }

    var videoRecordingState: VideoRecordingState { state.withLock { $0.recordingState } }

    func addVideoRecordingStateObserver(_ observer: @escaping @Sendable (VideoRecordingState) -> Void)
        -> ObservationToken
    {
        recordingObservers.addObserver(observer)
    }

    func startVideoRecording() async throws {
        setRecordingState(.recording(timer: .countingUp(.zero)))
    }

    func stopVideoRecording() async throws {
        setRecordingState(.notRecording)
    }

    /// Changes the recording state, as the camera's timer would.
    func setRecordingState(_ recordingState: VideoRecordingState) {
        state.withLock { $0.recordingState = recordingState }
        recordingObservers.notify(recordingState)
    }

    // MARK: CameraPropertyBackend

    func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        sentValuesContinuation.yield((name, rawValue))
        let (behaviour, reflect) = state.withLock { ($0.setBehaviour, $0.reflectors[name]) }
        switch behaviour {
        case .reflect:
            reflect?(rawValue)
        case .reflectLater:
            Task { reflect?(rawValue) }
        case .ignore:
            break
        case .fail(let error):
            throw error
        }
    }

    func stepValue(forPropertyNamed name: String, by steps: Int) async throws {
        sentValuesContinuation.yield((name, .integer(Int64(steps))))
        let (behaviour, step) = state.withLock { ($0.setBehaviour, $0.steppers[name]) }
        switch behaviour {
        case .reflect:
            step?(steps)
        case .reflectLater:
            Task { step?(steps) }
        case .ignore:
            break
        case .fail(let error):
            throw error
        }
    }

    // MARK: CameraFileAccess

    func storages() async throws -> [CameraStorage] { [Self.storage] }

    func contents(of folder: CameraFileItem?, in storage: CameraStorage) async throws -> [CameraFileItem] {
        state.withLock { $0.files.map(\.item) }
    }

    func download(
        _ item: CameraFileItem,
        chunkHandler: @escaping @Sendable (_ chunk: [UInt8], _ progress: CameraTransferProgress) async throws -> Void
    ) async throws {
        let bytes = try self.bytes(of: item)
        var offset = 0
        repeat {
            let chunk = Array(bytes[offset..<min(offset + 64, bytes.count)])
            offset += chunk.count
            let progress = CameraTransferProgress(
                completedByteCount: UInt64(offset), totalByteCount: UInt64(bytes.count))
            try await chunkHandler(chunk, progress)
        } while offset < bytes.count
    }

    func thumbnail(of item: CameraFileItem) async throws -> [UInt8] {
        Array(try bytes(of: item).prefix(8))
    }

    func delete(_ item: CameraFileItem) async throws {
        try state.withLock { state in
            guard let index = state.files.firstIndex(where: { $0.item.id == item.id }) else {
                throw ViewfinderError(.notFound, "no file \(item.name) on the card")
            }
            state.files.remove(at: index)
        }
    }

    func addNewFileObserver(_ observer: @escaping @Sendable (CameraFileItem) -> Void) -> ObservationToken {
        newFileObservers.addObserver { items in items.forEach(observer) }
    }

    var droppedFileEventCount: Int { newFileObservers.droppedCount }

    /// The fake camera offers no pictures by itself (it lacks ``CameraFunctionality/cameraInitiatedTransfer``).
    func addCameraInitiatedTransferHandler(
        _ handler: @escaping @Sendable (CameraInitiatedTransferRequest) -> Void
    ) -> ObservationToken {
        CameraObserverRegistry<CameraInitiatedTransferRequest>().addObserver(handler)
    }

    /// The fake camera offers no previews: its connection reports no pictures it writes.
    func addShotPreviewObserver(_ observer: @escaping @Sendable (CameraShotPreview) -> Void) -> ObservationToken {
        CameraObserverRegistry<CameraShotPreview>().addObserver(observer)
    }

    private func bytes(of item: CameraFileItem) throws -> [UInt8] {
        guard let bytes = state.withLock({ $0.files.first { $0.item.id == item.id }?.bytes }) else {
            throw ViewfinderError(.notFound, "no file \(item.name) on the card")
        }
        return bytes
    }
}
