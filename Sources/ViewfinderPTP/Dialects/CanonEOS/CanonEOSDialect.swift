import ViewfinderCore
import ViewfinderSystem

/// Canon's EOS PTP (vendor extension 0x0B): remote mode, events polled with GetEvent, properties set with
/// SetDevicePropValueEx, the shutter through RemoteRelease and RemoteReleaseOn/Off, and EVF live view.
///
/// EOS cameras report nothing through standard properties or events. At connect the dialect puts the camera in
/// remote mode and asks it to queue its events, then reads them with GetEvent until an answer holds none: the first
/// answers describe every property. While connected it polls GetEvent a few times a second, more often while the
/// camera says it is busy taking a picture, and at once after a set or a shutter release, taking the records in the
/// order the camera sent them.
final class CanonEOSDialect: PTPDialect {
    static let name = "Canon EOS"

    struct State {
        var poller: Task<Void, Never>?
        /// Files the camera has reported added since the connection opened.
        var filesAdded = 0
        /// Whether the camera reported itself busy, as it does while it takes a picture.
        var isBusy = false
        var isRecording = false
        /// Where live view went before the dialect sent it to the computer, while it does.
        var outputBeforeLiveView: Int64?
        var isCapturing = false
        var ended: ViewfinderError?
        /// Pictures the camera holds in its memory until the computer has read them.
        var heldForTransfer: Set<UInt32> = []
        /// Whether the camera refused remote mode, so that it cannot be shot from the computer.
        var remoteModeRefused = false
        /// While the shutter button is held down: the files added before it was pressed.
        var shutterHeldAfter: Int?
        /// Whether the shutter button is held half down.
        var halfPressed = false
    }

    /// How often the camera's events are read while nothing waits for them and the camera is idle (libgphoto2's
    /// tethered wait asks every 50 to 200 ms).
    static let pollInterval = Duration.milliseconds(100)
    /// How often they are read while a capture or a set waits for them, and while the camera says it is busy: from a
    /// press of its own shutter button, which the next poll hears of, until the picture is written, so that a
    /// picture taken with the camera's button is heard of within 20 ms of the camera having it.
    static let activePollInterval = Duration.milliseconds(20)
    /// The most GetEvent answers read at connect before the camera must have said everything.
    private static let openingPolls = 32
    /// How many times a live view frame that is not ready is asked for again.
    private static let notReadyRetries = 200

    let connection: PTPConnection
    let properties: CanonEOSProperties
    private let polls = SerialTasks()
    let state = Locked(State())

    private init(connection: PTPConnection) {
        self.connection = connection
        properties = CanonEOSProperties(connection: connection)
    }

    /// A Canon that reports Canon's extension, or Microsoft's MTP extension (or none) with Canon as its maker, and
    /// has the EOS remote operations; older PowerShot cameras, without them, are standard PTP.
    static func claims(_ deviceInfo: PTPDeviceInfo) -> Bool {
        let isCanon =
            switch deviceInfo.vendorExtensionID {
            case 0x0B: true
            case 0x06, 0xFFFF_FFFF: deviceInfo.manufacturer.lowercased().contains("canon")
            default: false
            }
        return isCanon && deviceInfo.supports(.canonEOSSetRemoteMode) && deviceInfo.supports(.canonEOSGetEvent)
    }

    /// Opens the connection as libgphoto2 prepares an EOS camera: remote mode in the value its model family takes,
    /// event mode, every OLC info group where the camera offers them, then its events until it has said everything.
    ///
    /// A camera that refuses remote mode, event mode or the OLC groups still connects: its properties and files are
    /// there, and what needs remote mode (pictures, live view, movies) is not offered.
    static func open(_ connection: PTPConnection) async throws -> CanonEOSDialect {
        let dialect = CanonEOSDialect(connection: connection)
        let session = connection.session
        if let mode = remoteMode(of: connection.deviceInfo) {
            let accepted = try await refusalIsNotFatal {
                try await session.transaction(.canonEOSSetRemoteMode, parameters: [mode])
            }
            dialect.state.withLock { $0.remoteModeRefused = !accepted }
        }
        try await refusalIsNotFatal { try await session.transaction(.canonEOSSetEventMode, parameters: [1]) }
        if connection.deviceInfo.supports(.canonEOSSetRequestOLCInfoGroup) {
            try await refusalIsNotFatal {
                try await session.transaction(.canonEOSSetRequestOLCInfoGroup, parameters: [0x1FFF])
            }
        }
        for _ in 0..<openingPolls {
            guard try await dialect.poll() > 0 else { break }
        }
        try await refusalIsNotFatal { try await dialect.sendPicturesToTheCard() }
        dialect.startPolling()
        return dialect
    }

    /// The remote mode a model takes, as libgphoto2 knows them: 1 for EOS DSLRs, 0x15 for EOS M bodies and the
    /// PowerShots with EOS M-like firmware (0x11 for the G5 X and SX540 HS, 1 for the M6 Mark II), and none for the
    /// SX600 HS, which must not be sent it.
    static func remoteMode(of deviceInfo: PTPDeviceInfo) -> UInt32? {
        let model = deviceInfo.model
        guard isEOSMFamily(deviceInfo) else { return 1 }
        switch model {
        case "Canon PowerShot SX600 HS": return nil
        case "Canon PowerShot G5 X", "Canon PowerShot SX540 HS": return 0x11
        case "Canon EOS M6 Mark II": return 1
        default: return 0x15
        }
    }

    /// Whether the camera is an EOS M, or a PowerShot or IXUS whose firmware is like an EOS M's (it has
    /// RemoteReleaseOn), which libgphoto2 drives differently from EOS DSLRs.
    static func isEOSMFamily(_ deviceInfo: PTPDeviceInfo) -> Bool {
        let model = deviceInfo.model
        if model.hasPrefix("Canon EOS M") { return true }
        let powerShotLike = ["Canon PowerShot SX", "Canon PowerShot G", "Canon Digital IXUS"].contains {
            model.hasPrefix($0)
        }
        return powerShotLike && deviceInfo.supports(.canonEOSRemoteReleaseOn)
    }

    var functionality: CameraFunctionality {
        let info = connection.deviceInfo
        var functionality = StandardDialect.standardFunctionality(of: info).intersection([.fileAccess, .fileDeletion])
        if info.supports(.canonEOSSetDevicePropValueEx) {
            functionality.insert(.propertyControl)
        }
        // Shooting from the computer needs the remote mode the camera refused.
        guard !state.withLock({ $0.remoteModeRefused }) else { return functionality }
        if info.supports(.canonEOSRemoteRelease) || info.supports(.canonEOSRemoteReleaseOn) {
            functionality.insert(.stillCapture)
        }
        if info.supports(.canonEOSRemoteReleaseOn), info.supports(.canonEOSRemoteReleaseOff) {
            functionality.formUnion([.heldShutter, .shutterHalfPress])
        }
        if info.supports(.canonEOSGetViewFinderData) {
            functionality.insert(.liveView)
            if info.supports(.canonEOSDriveLens) {
                functionality.insert(.directFocusDrive)
            }
            if info.supports(.canonEOSZoom) {
                functionality.insert(.liveViewZoom)
            }
            if info.supports(.canonEOSZoomPosition) {
                functionality.insert(.pannableLiveView)
            }
        }
        if clockProperty != nil, info.supports(.canonEOSSetDevicePropValueEx) {
            functionality.insert(.clockUpdate)
        }
        if info.supports(.canonEOSTransferComplete), functionality.contains(.fileAccess) {
            functionality.insert(.cameraInitiatedTransfer)
        }
        if properties.hasReported(.canonEOSEVFRecordStatus) {
            functionality.insert(.videoRecording)
        }
        if info.supports(.canonEOSFocusInfoEx) || properties.hasReported(.canonEOSFocusInfoEx) {
            functionality.insert(.focusInfo)
        }
        return functionality
    }

    // MARK: Events

    /// Reads the camera's events once and acts on them, after any poll already under way.
    ///
    /// - Returns: How many records the camera sent.
    @discardableResult
    func poll() async throws -> Int {
        try await polls.run { [self] in
            let data = try await connection.session.dataset(.canonEOSGetEvent)
            let events = try PTPCanonEOSEvent.decode(data)
            take(events)
            return events.count
        }
    }

    /// Acts on one answer's records: properties, new files, the camera's state.
    private func take(_ events: [PTPCanonEOSEvent]) {
        properties.apply(events)
        var added: [UInt32] = []
        for event in events {
            switch event {
            case .propertyChanged(.canonEOSFocusInfoEx, let value):
                // A malformed record leaves the focus information as the last good one said.
                if let info = try? CanonEOSFocusInfo.decode(value) {
                    connection.reportFocusInfo(info)
                }
            case .objectAdded(let handle, _, _, _, _, _):
                state.withLock { $0.filesAdded += 1 }
                added.append(handle)
            case .objectTransferRequested(let handle, let format, let size, let name):
                state.withLock { state in
                    state.filesAdded += 1
                    state.heldForTransfer.insert(handle)
                }
                let info = PTPObjectInfo(
                    storageID: 0, format: format, compressedSize: size, parentObject: 0, filename: name)
                connection.reportTransferRequest(CameraFileItem(handle: handle, info: info))
            case .cameraStatus(let status):
                state.withLock { $0.isBusy = status == 1 }
            default:
                break
            }
        }
        followRecording()
        if !added.isEmpty {
            // The card's own record of a file says more than the event (its picture size, its date).
            Task { [connection] in
                for handle in added { await connection.reportNewObject(handle) }
            }
        }
    }

    /// Starts the background poll.
    ///
    /// The poll holds the dialect until it is cancelled, which ``prepareToClose()`` and ``connectionEnded(with:)``
    /// do, and the camera does one of them on every end of a connection, its own release included.
    private func startPolling() {
        let task = Task { [self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: backgroundPollDelay)
                guard !Task.isCancelled else { return }
                do {
                    try await poll()
                } catch let error as ViewfinderError where error.code == .notConnected {
                    return
                } catch {
                    // A refused or malformed answer: the next poll asks again.
                }
            }
        }
        state.withLock { $0.poller = task }
    }

    /// How long the background poll waits before it reads the camera's events again: ``activePollInterval`` while
    /// the camera says it is busy taking a picture, ``pollInterval`` otherwise.
    var backgroundPollDelay: Duration {
        state.withLock { $0.isBusy } ? Self.activePollInterval : Self.pollInterval
    }

    /// Polls until `condition` holds or `timeout` passes; returns whether it held.
    private func poll(upTo timeout: Duration, until condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            try await poll()
            if condition() { return true }
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: Self.activePollInterval)
        }
    }

    /// Any event the transport delivers means the camera has something to say: its events are read at once.
    func handle(_ event: PTPEvent) async {
        _ = try? await poll()
    }

    func eventsWereMissed() async {
        _ = try? await poll()
    }

    // MARK: Properties

    func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        do {
            try await properties.setRawValue(rawValue, forPropertyNamed: name)
        } catch let error as ViewfinderError {
            throw connection.lostSessionError(error, while: "set \(name)")
        }
        // The camera reports the new value in its next events: read them now rather than at the next poll.
        _ = try? await poll()
    }

    /// Makes pictures go to the card when they go to the computer, as after a program that left them so; a camera
    /// that lists no card destination is left as it is.
    private func sendPicturesToTheCard() async throws {
        guard properties.value(of: .canonEOSCaptureDestination) == Self.computerDestination,
            let card = properties.allowedValues(of: .canonEOSCaptureDestination)?.first(where: {
                $0 != Self.computerDestination
            })
        else { return }
        try await properties.set(.canonEOSCaptureDestination, to: card)
        try await poll()
    }

    /// The capture destination that sends pictures to the computer instead of the card.
    static let computerDestination: Int64 = 4

    // MARK: Shutter

    /// Takes a picture and returns once the camera reports the new file.
    ///
    /// With autofocus, a camera with RemoteRelease focuses and releases in one operation whose result says whether it
    /// found focus; otherwise the shutter button is pressed half (to focus) and fully with RemoteReleaseOn. Without
    /// autofocus it is pressed fully with focusing turned off.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera could not focus or its card is full or
    ///   locked, ``ViewfinderError/Code/deviceBusy`` while another picture is being taken,
    ///   ``ViewfinderError/Code/timeout`` when no file appears in time.
    func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {
        let marker = try state.withLock { state throws(ViewfinderError) -> Int in
            if let ended = state.ended { throw ended }
            guard !state.isCapturing else {
                throw ViewfinderError(.deviceBusy, "a picture is being taken; wait for it before taking the next")
            }
            state.isCapturing = true
            return state.filesAdded
        }
        defer { state.withLock { $0.isCapturing = false } }
        let info = connection.deviceInfo
        do {
            if info.supports(.canonEOSRemoteRelease) && (engageAutoFocus || !info.supports(.canonEOSRemoteReleaseOn)) {
                do {
                    try await remoteRelease()
                } catch let error as ViewfinderError
                    where error.code == .protocolFailure && info.supports(.canonEOSRemoteReleaseOn)
                {
                    // Newer bodies list RemoteRelease and refuse it: the shutter button is pressed instead.
                    try await pressShutter(focusing: engageAutoFocus)
                }
            } else if info.supports(.canonEOSRemoteReleaseOn) {
                try await pressShutter(focusing: engageAutoFocus)
            } else {
                throw ViewfinderError(.notAvailable, "\(connection.model) cannot take pictures over PTP")
            }
        } catch let error as ViewfinderError {
            throw StandardCapture.captureError(error, connection: connection)
        }
        try await waitForFile(after: marker, focusing: engageAutoFocus)
    }

    /// RemoteRelease, whose first response parameter says whether the camera took the picture.
    private func remoteRelease() async throws {
        let response = try await connection.session.transaction(.canonEOSRemoteRelease).response
        switch response.parameters.first ?? 0 {
        case 0:
            return
        case 1:
            throw ViewfinderError(
                .notAvailable,
                "the camera could not focus, so it took no picture; point it at something with contrast, or take the "
                    + "picture without autofocus")
        case 3:
            throw ViewfinderError(.notAvailable, "the camera's mirror is locked up; it took no picture")
        case 7:
            throw ViewfinderError(.notAvailable, "the camera's card is full; free some space to take pictures")
        case 8:
            throw ViewfinderError(.notAvailable, "the camera's card is locked; unlock it to take pictures")
        case let other:
            throw ViewfinderError(
                .protocolFailure, "the camera did not take the picture (RemoteRelease result \(other))")
        }
    }

    /// Presses the shutter button: half, to focus, then fully, with autofocus; fully at once without it.
    private func pressShutter(focusing: Bool) async throws {
        let session = connection.session
        if focusing {
            _ = try await session.transaction(.canonEOSRemoteReleaseOn, parameters: [1, 0])
            _ = try await session.transaction(.canonEOSRemoteReleaseOn, parameters: [2, 0])
            _ = try await session.transaction(.canonEOSRemoteReleaseOff, parameters: [2])
            _ = try await session.transaction(.canonEOSRemoteReleaseOff, parameters: [1])
        } else {
            // Both buttons (3), with autofocus off (the second parameter).
            _ = try await session.transaction(.canonEOSRemoteReleaseOn, parameters: [3, 1])
            _ = try await session.transaction(.canonEOSRemoteReleaseOff, parameters: [3])
        }
    }

    /// Waits for the camera to report a file added after `marker` files: within the focus timeout unless the camera
    /// reports itself busy taking the picture, then within the capture timeout.
    func waitForFile(after marker: Int, focusing: Bool) async throws {
        let configuration = connection.configuration
        let started = ContinuousClock.now
        let added = try await poll(upTo: configuration.captureTimeout) {
            let (files, busy) = state.withLock { ($0.filesAdded, $0.isBusy) }
            if files > marker { return true }
            // A camera that neither works nor reports a file within the focus timeout took no picture.
            return !busy && started.duration(to: .now) > configuration.focusTimeout
        }
        guard added, state.withLock({ $0.filesAdded > marker }) else {
            throw ViewfinderError(
                .timeout,
                focusing
                    ? "the camera took no picture after the shutter release; it may not have found focus: point it at "
                        + "something with contrast, or take the picture without autofocus"
                    : "the camera took no picture after the shutter release; check its card and its mode")
        }
    }

    // MARK: Live view

    func startLiveView() async throws {
        if properties.value(of: .canonEOSEVFMode) != 1 {
            try await properties.set(.canonEOSEVFMode, to: 1)
        }
        let output = properties.value(of: .canonEOSEVFOutputDevice) ?? 1
        if output & Self.computerOutput == 0 {
            try await properties.set(.canonEOSEVFOutputDevice, to: output | Self.computerOutput)
            state.withLock { $0.outputBeforeLiveView = output }
        }
        if connection.deviceInfo.supports(.canonEOSKeepDeviceOn) {
            _ = try await connection.session.transaction(.canonEOSKeepDeviceOn)
        }
        let deadline = ContinuousClock.now + connection.configuration.liveViewReadyTimeout
        while try await viewFinderData() == nil {
            guard ContinuousClock.now < deadline else {
                throw ViewfinderError(
                    .timeout,
                    "the camera's live view did not start within \(connection.configuration.liveViewReadyTimeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The live view output that sends frames to the computer.
    private static let computerOutput: Int64 = 2

    func liveViewImage() async throws -> [UInt8] {
        for _ in 0..<Self.notReadyRetries {
            if let data = try await viewFinderData() {
                return Array(try PTPCanonEOSLiveViewFrame(data: data).jpeg)
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw ViewfinderError(.timeout, "the camera's live view gave no frame for a second")
    }

    /// GetViewFinderData's answer, or `nil` while the camera has no frame (EOS NotReady, DeviceBusy).
    private func viewFinderData() async throws -> [UInt8]? {
        do {
            return try await connection.session.transaction(
                .canonEOSGetViewFinderData, parameters: [0x0020_0000, 0, 0]
            ).data
        } catch let error as ViewfinderError
            where error.responseCode == PTPResponseCode.canonEOSNotReady.rawValue
            || error.responseCode == PTPResponseCode.deviceBusy.rawValue
        {
            return nil
        }
    }

    func endLiveView() async {
        guard let output = state.withLock({ $0.outputBeforeLiveView }) else { return }
        state.withLock { $0.outputBeforeLiveView = nil }
        try? await properties.set(.canonEOSEVFOutputDevice, to: output)
    }

    // MARK: Recording

    /// The record status while a movie is recorded.
    private static let recording: Int64 = 4

    func startRecording() async throws {
        try await setRecordStatus(Self.recording, starting: true)
    }

    func stopRecording() async throws {
        try await setRecordStatus(0, starting: false)
    }

    private func setRecordStatus(_ status: Int64, starting: Bool) async throws {
        guard properties.hasReported(.canonEOSEVFRecordStatus) else {
            throw ViewfinderError(.notAvailable, "\(connection.model) cannot record video over PTP")
        }
        do {
            try await properties.set(.canonEOSEVFRecordStatus, to: status)
        } catch let error as ViewfinderError where error.code == .protocolFailure {
            throw ViewfinderError(
                .notAvailable,
                starting
                    ? "the camera cannot start recording now; switch it to movie mode" : "the camera is not recording",
                responseCode: error.responseCode)
        }
        let reported = try await poll(upTo: .seconds(3)) {
            properties.value(of: .canonEOSEVFRecordStatus) == status
        }
        guard reported else {
            throw ViewfinderError(.timeout, "the camera did not \(starting ? "start" : "stop") recording within 3 s")
        }
    }

    /// Tells the camera's observers when the record status starts or stops showing a recording.
    private func followRecording() {
        guard let status = properties.value(of: .canonEOSEVFRecordStatus) else { return }
        let recording = status == Self.recording
        let changed = state.withLock { state in
            defer { state.isRecording = recording }
            return state.isRecording != recording
        }
        guard changed else { return }
        if recording { connection.recordingStarted() } else { connection.recordingStopped() }
    }

    // MARK: Files

    /// Tells the camera that a picture it held for the computer has been read, so that it frees its memory for the
    /// next.
    func fileDownloaded(_ handle: UInt32) async {
        guard state.withLock({ $0.heldForTransfer.remove(handle) }) != nil else { return }
        _ = try? await connection.session.transaction(.canonEOSTransferComplete, parameters: [handle])
    }

    // MARK: The connection's end

    func prepareToClose() async {
        // The poll ends before the session does, so no poll is under way or to come when it closes.
        let poller = state.withLock { $0.poller }
        poller?.cancel()
        await poller?.value
        await endLiveView()
        // A shutter button left held down is let go, so that the camera does not go on exposing or focusing.
        if state.withLock({ $0.halfPressed || $0.shutterHeldAfter != nil }) {
            _ = try? await connection.session.transaction(.canonEOSRemoteReleaseOff, parameters: [3])
        }
        _ = try? await connection.session.transaction(.canonEOSSetEventMode, parameters: [0])
        if Self.remoteMode(of: connection.deviceInfo) != nil {
            _ = try? await connection.session.transaction(.canonEOSSetRemoteMode, parameters: [0])
        }
    }

    func connectionEnded(with error: ViewfinderError) {
        state.withLock { state in
            state.poller?.cancel()
            state.poller = nil
            state.ended = error
        }
    }
}
