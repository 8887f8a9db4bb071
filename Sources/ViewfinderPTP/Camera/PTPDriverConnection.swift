import ViewfinderCore

/// One connection of the PTP driver: a session, over the transport a ``PTPEndpoint`` opened, and the dialect that
/// speaks to the camera, chosen from what the camera said about itself.
///
/// ``PTPCamera``'s `CameraDriverCore` opens one per connection; the lifecycle around it is the core's.
public final class PTPDriverConnection: CameraDriverConnection {
    /// The session of this connection.
    let session: PTPSession
    /// The dialect that speaks to the camera.
    let dialect: any PTPDialect
    /// What the camera can do through the dialect, as the dialect said when it opened.
    public let functionality: CameraFunctionality
    private let context: CameraDriverContext

    private init(session: PTPSession, dialect: any PTPDialect, context: CameraDriverContext) {
        self.session = session
        self.dialect = dialect
        self.context = context
        // PowerDown is ISO 15740's, for every vendor's cameras that list it.
        functionality = dialect.functionality.union(
            session.deviceInfo.supports(.powerDown) ? .powerOffOnDisconnect : [])
    }

    /// Opens the transport and a session, chooses the dialect and lets it read what the camera has.
    static func open(
        _ endpoint: any PTPEndpoint, configuration: PTPCamera.Configuration, context: CameraDriverContext
    ) async throws -> PTPDriverConnection {
        let transport = try await endpoint.openTransport()
        let session = try await PTPSession.open(over: transport, configuration: configuration.session)
        do {
            let connection = PTPConnection(session: session, configuration: configuration, context: context)
            let dialect = try await PTPDialects.dialect(for: session.deviceInfo).open(connection)
            return PTPDriverConnection(session: session, dialect: dialect, context: context)
        } catch {
            await session.close()
            throw error
        }
    }

    /// What the camera said about itself when the session opened.
    var ptpDeviceInfo: PTPDeviceInfo { session.deviceInfo }

    /// The maker, model, serial number and firmware version from the camera's DeviceInfo.
    public var deviceInfo: CameraDeviceInfo {
        let info = session.deviceInfo
        return CameraDeviceInfo(
            manufacturer: info.manufacturer, model: info.model, serialNumber: info.serialNumber,
            version: info.deviceVersion)
    }

    /// "over PTP that Viewfinder speaks", with the dialect's name.
    public var driverDescription: String {
        "over PTP that Viewfinder speaks (\(type(of: dialect).name) dialect)"
    }

    /// The error that ended the session, once the camera went away.
    public var endingError: ViewfinderError? {
        guard case .closed(let reason?) = session.state else { return nil }
        return reason
    }

    /// Passes the session's events to the dialect until the session ends, and returns the error that ended it.
    public func run() async -> ViewfinderError? {
        let queue = PTPEventQueue(dialect: dialect, session: session)
        var failure: ViewfinderError?
        do {
            for try await event in session.events {
                guard context.cameraExists else { break }
                // Seen at once, the end of a capture above all; handled in turn, without holding up the next.
                dialect.observe(event)
                queue.enqueue(event)
            }
        } catch {
            failure = error as? ViewfinderError ?? ViewfinderError(.disconnected, "\(error)")
        }
        await queue.finish()
        return failure
    }

    /// Sends a property's new value through the dialect.
    public func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        try await dialect.setRawValue(rawValue, forPropertyNamed: name)
    }

    /// Steps a property through the dialect.
    public func stepValue(forPropertyNamed name: String, by steps: Int) async throws {
        try await dialect.stepValue(forPropertyNamed: name, by: steps)
    }

    /// Takes a picture through the dialect.
    public func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {
        try await dialect.takePicture(engagingAutoFocus: engageAutoFocus)
    }

    /// Holds the shutter button half down through the dialect.
    public func engageAutoFocus() async throws {
        try await dialect.engageAutoFocus()
    }

    /// Lets go of the half press through the dialect.
    public func disengageAutoFocus() async throws {
        try await dialect.disengageAutoFocus()
    }

    /// Holds the shutter through the dialect.
    public func engageShutter() async throws {
        try await dialect.engageShutter()
    }

    /// Lets go of the shutter through the dialect.
    public func disengageShutter() async throws {
        try await dialect.disengageShutter()
    }

    /// Moves the focus through the dialect.
    public func driveFocus(_ amount: FocusDriveAmount, towards direction: FocusDriveDirection) async throws {
        try await dialect.driveFocus(amount, towards: direction)
    }

    /// Focuses at a live view point through the dialect.
    public func touchAutoFocus(at point: LiveViewPoint) async throws {
        try await dialect.touchAutoFocus(at: point)
    }

    /// Turns the camera off with PowerDown.
    public func powerOff() async throws {
        _ = try await session.transaction(.powerDown)
    }

    /// What the camera serves now, as the dialect says.
    public var currentCommandCategories: CameraCommandCategories? { dialect.currentCommandCategories }

    /// Switches the camera's command categories through the dialect.
    public func switchToCommandCategories(_ categories: CameraCommandCategories) async throws {
        try await dialect.switchToCommandCategories(categories)
    }

    /// Magnifies the live view through the dialect.
    public func setLiveViewZoomLevel(_ level: LiveViewZoomLevel) async throws {
        try await dialect.setLiveViewZoomLevel(level)
    }

    /// Sets the camera's clock through the dialect.
    public func updateClock(to time: CameraClockTime) async throws {
        try await dialect.updateClock(to: time)
    }

    /// Reads the camera's clock through the dialect.
    public func readClock() async throws -> CameraClockTime {
        try await dialect.readClock()
    }

    /// Starts live view through the dialect.
    public func startLiveView() async throws {
        try await dialect.startLiveView()
    }

    /// Fetches a live view image through the dialect.
    public func liveViewImage() async throws -> [UInt8] {
        try await dialect.liveViewImage()
    }

    /// Fetches a live view image and its geometry through the dialect.
    public func liveViewImageWithGeometry() async throws -> (image: [UInt8], geometry: LiveViewGeometry?) {
        try await dialect.liveViewImageWithGeometry()
    }

    /// Ends live view through the dialect.
    public func endLiveView() async {
        await dialect.endLiveView()
    }

    /// The dialect's live view thread, if it reads frames on one (Fujifilm's JPEG stream over WiFi), otherwise the
    /// session's command thread, where each frame's transaction runs.
    public var liveViewExecutor: (any TaskExecutor)? {
        dialect.liveViewExecutor ?? session.core.commandThread
    }

    /// Starts recording through the dialect.
    public func startRecording() async throws {
        try await dialect.startRecording()
    }

    /// Stops recording through the dialect.
    public func stopRecording() async throws {
        try await dialect.stopRecording()
    }

    /// Lets the dialect let go of what it holds on the camera.
    public func prepareToClose() async {
        await dialect.prepareToClose()
    }

    /// Closes the session.
    public func close() async {
        await session.close()
    }

    /// Tells the dialect that the connection ended.
    public func connectionEnded(with error: ViewfinderError) {
        dialect.connectionEnded(with: error)
    }
}
