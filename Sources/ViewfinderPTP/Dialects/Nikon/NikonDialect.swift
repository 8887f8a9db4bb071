import ViewfinderCore
import ViewfinderSystem

/// Nikon's PTP (vendor extension 0x0A): the standard properties with Nikon's value tables, autofocus with AfDrive,
/// the shutter held for bulb with InitiateCaptureRecInMedia and TerminateCapture, live view with StartLiveView,
/// GetLiveViewImg and EndLiveView, and movie recording while live view is on.
final class NikonDialect: PTPDialect {
    static let name = "Nikon"

    private let connection: PTPConnection
    private let properties: StandardProperties
    private let capture: StandardCapture
    private let liveViewLease = NikonLiveViewLease()
    private let poller = PTPEventPoller()
    /// The shutter held by ``engageShutter()``: `nil` while it is not, `.none` while the camera is asked to hold it.
    private let heldShutter = Locked<StandardCapture.StartedCapture??>(nil)
    /// Whether a movie is being recorded, as far as this connection knows.
    private let isRecording = Locked(false)
    /// What the last live view header said of the picture, and whether the camera focused with its autofocus area
    /// since the area last moved.
    private let afArea = Locked<(aspect: Dimensions?, focused: Bool)>((nil, false))
    /// How often a frame that is not ready yet (DeviceBusy) is asked for again before live view fails.
    private static let busyRetries = 200

    private init(connection: PTPConnection) {
        self.connection = connection
        properties = StandardProperties(
            connection: connection,
            bindings: NikonPropertyValues.bindings + [NikonLiveViewZoom.binding(model: connection.model)])
        capture = StandardCapture(connection: connection)
    }

    /// Nikon's vendor extension, or a Nikon that reports Microsoft's MTP extension (or none) instead.
    static func claims(_ deviceInfo: PTPDeviceInfo) -> Bool {
        switch deviceInfo.vendorExtensionID {
        case 0x0A: true
        case 0x06, 0xFFFF_FFFF: deviceInfo.manufacturer.lowercased().contains("nikon")
        default: false
        }
    }

    /// Reads the camera's properties, and starts asking for its events with CheckEvent where it lists the operation.
    static func open(_ connection: PTPConnection) async throws -> NikonDialect {
        let dialect = NikonDialect(connection: connection)
        try await dialect.properties.readAll()
        if connection.deviceInfo.supports(.nikonCheckEvent) {
            dialect.poller.start(on: connection.session, asking: checkEvent) { [weak dialect] event in
                dialect?.observe(event)
                await dialect?.handle(event)
            }
        }
        return dialect
    }

    /// Asks the camera for the events it holds, with CheckEvent (0x90C7), as libgphoto2 does wherever the camera
    /// lists the operation; runs on the command thread.
    static func checkEvent(on core: PTPSessionCore) throws -> [PTPEvent] {
        try events(inCheckEventAnswer: try core.dataset(.nikonCheckEvent, cancellation: PTPCancellationFlag()))
    }

    /// The events in a CheckEvent answer: each record an event code and its one parameter.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the count claims more records than the bytes hold.
    static func events(inCheckEventAnswer data: [UInt8]) throws(ViewfinderError) -> [PTPEvent] {
        try PTPEventPoller.records(in: data, of: "Nikon CheckEvent answer").map {
            PTPEvent(code: PTPEventCode(rawValue: $0.code), transactionID: 0xFFFF_FFFF, parameters: [$0.value])
        }
    }

    var functionality: CameraFunctionality {
        let info = connection.deviceInfo
        var functionality = StandardDialect.standardFunctionality(of: info)
        if info.supports(.nikonAfDrive) {
            functionality.insert(.shutterHalfPress)
        }
        if [.nikonChangeCameraMode, .nikonInitiateCaptureRecInMedia, .nikonTerminateCapture].allSatisfy(info.supports) {
            functionality.insert(.heldShutter)
        }
        if [.nikonStartLiveView, .nikonGetLiveViewImage, .nikonEndLiveView].allSatisfy(info.supports) {
            functionality.insert(.liveView)
            if info.supports(.nikonMfDrive) {
                functionality.insert(.directFocusDrive)
            }
            // The live view header carries the autofocus area, which ChangeAfArea moves.
            functionality.insert(.focusInfo)
            if info.supports(.nikonChangeAfArea), info.supports(.nikonAfDrive) {
                functionality.insert(.touchAutoFocus)
            }
            if info.supports(.nikonLiveViewImageZoomRatio), info.supports(.setDevicePropValue) {
                functionality.insert(.liveViewZoom)
            }
            if info.supports(.nikonStartMovieRecording), info.supports(.nikonEndMovieRecording) {
                functionality.insert(.videoRecording)
            }
        }
        return functionality
    }

    func observe(_ event: PTPEvent) {
        capture.observe(event)
    }

    func eventsWereMissed() async {
        try? await properties.readAll()
        await refreshRecordingState()
    }

    func handle(_ event: PTPEvent) async {
        if event.code == .devicePropChanged,
            event.parameters.first
                == UInt32(
                    PTPDevicePropertyCode.nikonMovieRecordingProhibitCondition.rawValue)
        {
            await refreshRecordingState()
            return
        }
        await StandardDialect.handleStandard(event, connection: connection, properties: properties)
    }

    func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        try await properties.setRawValue(rawValue, forPropertyNamed: name)
    }

    // MARK: Live view zoom

    /// The whole picture, then the levels the model names, in LiveViewImageZoomRatio's order.
    var liveViewZoomLevels: [LiveViewZoomLevel] {
        NikonLiveViewZoom.levels(ofModel: connection.model).sorted { $0.key < $1.key }.map(\.value)
    }

    /// Magnifies live view with LiveViewImageZoomRatio, as libgphoto2's `liveviewimagezoomratio` does: `.none` for
    /// the whole picture, else a level named as the model names it, such as "50%".
    ///
    /// - Throws: ``ViewfinderError/Code/invalidArgument`` for a level the model does not offer, before anything is
    ///   sent, or what the camera answered.
    func setLiveViewZoomLevel(_ level: LiveViewZoomLevel) async throws {
        let value = try NikonLiveViewZoom.value(of: level, model: connection.model)
        try await properties.setRawValue(.integer(value), forPropertyNamed: NikonLiveViewZoom.propertyName)
    }

    // MARK: Clock

    /// Sets the camera's clock through DateTime.
    func updateClock(to time: CameraClockTime) async throws {
        try await connection.session.setDateTime(time)
    }

    /// Reads the camera's clock from DateTime.
    func readClock() async throws -> CameraClockTime {
        try await connection.session.dateTime()
    }

    // MARK: Shutter

    /// Focuses with AfDrive when asked to and the camera offers it, then takes the picture with InitiateCapture.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera could not focus (Nikon's OutOfFocus), which
    ///   a subject without contrast or too close gives; the picture is not taken then.
    func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {
        if engageAutoFocus, connection.deviceInfo.supports(.nikonAfDrive) {
            try await focus(forPicture: true)
        }
        try await capture.takePicture()
    }

    /// Focuses with AfDrive and waits until the camera has: Nikon's half press, which the camera does not hold.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera could not focus (Nikon's OutOfFocus).
    func engageAutoFocus() async throws {
        try await focus(forPicture: false)
    }

    /// Stops an autofocus drive still under way with AfDriveCancel where the camera offers it; a focus that ended
    /// holds nothing to let go.
    func disengageAutoFocus() async throws {
        guard connection.deviceInfo.supports(.nikonAfDriveCancel) else { return }
        _ = try await connection.session.transaction(.nikonAfDriveCancel)
    }

    /// Moves the autofocus area to `point` with ChangeAfArea, as libgphoto2's `changeafarea` does, then focuses
    /// there with AfDrive until DeviceReady.
    ///
    /// - Throws: ``ViewfinderError/Code/invalidArgument`` for a point outside the picture the live view header gives;
    ///   ``ViewfinderError/Code/notAvailable`` while live view is off (NotLiveView) or when the camera could not
    ///   focus; what the camera answered otherwise.
    func touchAutoFocus(at point: LiveViewPoint) async throws {
        let aspect = afArea.withLock { $0.aspect }
        guard point.x >= 0, point.y >= 0, point.x <= aspect?.width ?? 0xFFFF, point.y <= aspect?.height ?? 0xFFFF
        else {
            throw ViewfinderError(
                .invalidArgument,
                "the point \(point) is outside the live view picture"
                    + (aspect.map { " (0x0 to \($0.width)x\($0.height))" } ?? ""))
        }
        do {
            _ = try await connection.session.transaction(
                .nikonChangeAfArea, parameters: [UInt32(point.x), UInt32(point.y)])
        } catch let error as ViewfinderError where error.responseCode == PTPResponseCode.nikonNotLiveView.rawValue {
            throw ViewfinderError(
                .notAvailable, "\(connection.model) moves its autofocus area only in live view; start live view first",
                responseCode: error.responseCode)
        }
        afArea.withLock { $0.focused = false }
        try await focus(forPicture: false)
    }

    /// Focuses with AfDrive and waits for DeviceReady; `forPicture` says, when the camera could not focus, that no
    /// picture was taken.
    private func focus(forPicture: Bool) async throws {
        let session = connection.session
        do {
            _ = try await session.transaction(.nikonAfDrive)
            try await session.waitUntilNikonReady(timeout: connection.configuration.focusTimeout, after: "focusing")
            afArea.withLock { $0.focused = true }
        } catch let error as ViewfinderError where error.responseCode == PTPResponseCode.nikonOutOfFocus.rawValue {
            throw ViewfinderError(
                .notAvailable,
                forPicture
                    ? "the camera could not focus, so it took no picture; point it at something with contrast, or "
                        + "switch the lens to manual focus and take the picture without autofocus"
                    : "the camera could not focus; point it at something with contrast",
                responseCode: error.responseCode)
        } catch let error as ViewfinderError {
            throw StandardCapture.captureError(error, connection: connection)
        }
    }

    /// Presses the shutter fully down and holds it, as libgphoto2's `bulb` does.
    ///
    /// ChangeCameraMode(1) puts the camera under the computer's control, then InitiateCaptureRecInMedia releases the
    /// shutter without autofocus, to the card. With the shutter speed at bulb the shutter stays open until
    /// ``disengageShutter()``; at a timed speed the camera takes its picture at once.
    ///
    /// - Throws: ``ViewfinderError/Code/alreadyRunning`` while the shutter is held,
    ///   ``ViewfinderError/Code/deviceBusy`` while a picture is being taken, or what the camera answered.
    func engageShutter() async throws {
        try heldShutter.withLock { (held) throws(ViewfinderError) in
            guard held == nil else {
                throw ViewfinderError(.alreadyRunning, "the shutter is already held; let go of it first")
            }
            held = .some(nil)
        }
        let connection = connection
        do {
            _ = try await connection.session.transaction(.nikonChangeCameraMode, parameters: [1])
            let capture = try await capture.startCapture {
                try await connection.session.transaction(
                    .nikonInitiateCaptureRecInMedia, parameters: [0xFFFF_FFFF, 0],
                    timeout: connection.captureRequestTimeout
                ).response.transactionID
            }
            heldShutter.withLock { $0 = .some(capture) }
        } catch {
            heldShutter.withLock { $0 = nil }
            throw error
        }
    }

    /// Lets the shutter go with TerminateCapture(0, 0), as libgphoto2's `bulb` does, waits with DeviceReady until
    /// the camera is ready, then for the picture.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the shutter is not held,
    ///   ``ViewfinderError/Code/timeout`` when the camera stays busy or reports no picture in time, or what the
    ///   camera answered.
    func disengageShutter() async throws {
        let held = try heldShutter.withLock { (held) throws(ViewfinderError) -> StandardCapture.StartedCapture in
            guard case .some(.some(let capture)) = held else {
                throw ViewfinderError(.notAvailable, "the shutter is not held; hold it with engageShutter() first")
            }
            held = nil
            return capture
        }
        let session = connection.session
        do {
            _ = try await session.transaction(.nikonTerminateCapture, parameters: [0, 0])
            try await session.waitUntilNikonReady(
                timeout: connection.configuration.captureTimeout, after: "ending the exposure")
        } catch {
            capture.abandon(held)
            throw error
        }
        try await capture.waitForCapture(held)
    }

    // MARK: Focus drive

    /// How many steps of Nikon's focus motor each amount is.
    static func mfDriveSteps(_ amount: FocusDriveAmount) -> UInt32 {
        switch amount {
        case .small: 10
        case .medium: 100
        case .large: 1000
        }
    }

    /// Moves the focus with MfDrive, as libgphoto2's `manualfocusdrive` does: direction 1 towards the camera and 2
    /// towards infinity, then DeviceReady until the lens has moved.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` while live view is off (NotLiveView), when the lens is at the
    ///   end of its travel (MfDriveStepEnd) or the step was too small to move it; what the camera answered otherwise.
    func driveFocus(_ amount: FocusDriveAmount, towards direction: FocusDriveDirection) async throws {
        let session = connection.session
        afArea.withLock { $0.focused = false }
        do {
            _ = try await session.transaction(
                .nikonMfDrive, parameters: [direction == .towardsCamera ? 1 : 2, Self.mfDriveSteps(amount)])
            try await session.waitUntilNikonReady(
                timeout: connection.configuration.focusTimeout, after: "driving the focus")
        } catch let error as ViewfinderError {
            let message: String? =
                switch error.responseCode {
                case PTPResponseCode.nikonNotLiveView.rawValue:
                    "\(connection.model) drives its focus only in live view; start live view first"
                case PTPResponseCode.nikonMfDriveStepEnd.rawValue:
                    "the focus did not move: the lens is at the end of its travel "
                        + (direction == .towardsCamera ? "towards the camera" : "towards infinity")
                case PTPResponseCode.nikonMfDriveStepInsufficiency.rawValue:
                    "the focus did not move: the step was too small for the lens"
                default: nil
                }
            guard let message else { throw error }
            throw ViewfinderError(.notAvailable, message, responseCode: error.responseCode)
        }
    }

    // MARK: Live view

    func startLiveView() async throws {
        try await liveViewLease.acquire(
            .liveView, on: connection.session, readyTimeout: connection.configuration.liveViewReadyTimeout)
    }

    func liveViewImage() async throws -> [UInt8] {
        try await liveViewImageWithGeometry().image
    }

    /// The live view JPEG and the geometry its header gives (``PTPNikonLiveViewHeader``), whose autofocus area
    /// becomes the camera's focus information, in focus once AfDrive focused with it.
    func liveViewImageWithGeometry() async throws -> (image: [UInt8], geometry: LiveViewGeometry?) {
        var busy = 0
        while true {
            do {
                var data = try await connection.session.transaction(.nikonGetLiveViewImage).data
                let jpeg = try PTPNikonLiveViewFrame.jpegRange(in: data)
                var geometry = PTPNikonLiveViewHeader.jpegSize(data[jpeg]).flatMap {
                    PTPNikonLiveViewHeader.geometry(header: data[..<jpeg.lowerBound], imageSize: $0)
                }
                if let aspect = geometry?.aspect {
                    let focused = afArea.withLock { area in
                        area.aspect = aspect
                        return area.focused
                    }
                    for index in geometry?.afAreas.indices ?? 0..<0 {
                        geometry?.afAreas[index].hasFocus = focused
                    }
                    if let areas = geometry?.afAreas, !areas.isEmpty {
                        connection.reportFocusInfo(FocusInfo(aspect: aspect, points: areas))
                    }
                }
                // Drop the header and anything after the image in place, without copying into a new array.
                data.removeSubrange(jpeg.upperBound...)
                data.removeSubrange(..<jpeg.lowerBound)
                return (data, geometry)
            } catch let error as ViewfinderError
                where error.responseCode == PTPResponseCode.deviceBusy.rawValue && busy < Self.busyRetries
            {
                // The camera has no new frame yet; it has one a few milliseconds later.
                busy += 1
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    func endLiveView() async {
        await liveViewLease.release(.liveView, on: connection.session)
    }

    // MARK: Recording

    /// Starts recording a movie to the card, turning live view on first if it is off (Nikon cameras record only
    /// with live view on).
    func startRecording() async throws {
        let session = connection.session
        try await liveViewLease.acquire(
            .recording, on: session, readyTimeout: connection.configuration.liveViewReadyTimeout)
        do {
            try await session.startNikonMovieRecording()
        } catch {
            await liveViewLease.release(.recording, on: session)
            throw Self.recordingError(error, starting: true)
        }
        isRecording.withLock { $0 = true }
        connection.recordingStarted()
    }

    func stopRecording() async throws {
        do {
            try await connection.session.endNikonMovieRecording()
        } catch {
            throw Self.recordingError(error, starting: false)
        }
        await recordingEnded()
    }

    private static func recordingError(_ error: any Error, starting: Bool) -> any Error {
        guard let error = error as? ViewfinderError, error.code == .protocolFailure,
            error.responseCode == PTPResponseCode.nikonInvalidStatus.rawValue
        else { return error }
        return ViewfinderError(
            .notAvailable,
            starting
                ? "the camera cannot start recording now; check its mode and card"
                : "the camera is not recording video", responseCode: error.responseCode)
    }

    /// Records that the movie ended and lets live view end if nothing else needs it.
    private func recordingEnded() async {
        let was = isRecording.withLock { recording in
            defer { recording = false }
            return recording
        }
        guard was else { return }
        connection.recordingStopped()
        await liveViewLease.release(.recording, on: connection.session)
    }

    /// Reads whether the camera records (bit 10 of the movie recording prohibit conditions), to follow recordings
    /// started or ended on the camera itself.
    private func refreshRecordingState() async {
        guard
            let value = try? await connection.session.propertyValue(
                .nikonMovieRecordingProhibitCondition, of: .uint32),
            let bits = value.integerValue
        else { return }
        if bits & (1 << 10) != 0 {
            isRecording.withLock { $0 = true }
            connection.recordingStarted()
        } else {
            await recordingEnded()
        }
    }

    // MARK: The connection's end

    func prepareToClose() async {
        await poller.stop()
        await liveViewLease.end(on: connection.session)
    }

    func connectionEnded(with error: ViewfinderError) {
        poller.cancel()
        liveViewLease.reset()
        heldShutter.withLock { $0 = nil }
        capture.connectionEnded(with: error)
    }
}
