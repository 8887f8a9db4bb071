/// A camera whose lifecycle a ``CameraDriverCore`` keeps: conforming types get every member of ``Camera`` (and of
/// ``CameraPropertyBackend``) from their core, and add only what their driver has of its own.
///
/// ```swift
/// public final class LumixCamera: DriverBackedCamera {
///     public let driverCore: CameraDriverCore<LumixConnection>
///     // init makes the core with the closure that opens a LumixConnection.
/// }
///
/// let camera = LumixCamera(host: "192.168.54.1")
/// try await camera.connect()
/// try await camera.property(for: .iso).setValue(.iso400)
/// ```
public protocol DriverBackedCamera: Camera, CameraPropertyBackend {
    /// The type of the connections the camera's driver opens.
    associatedtype DriverConnection: CameraDriverConnection

    /// The core that keeps the camera's connection, properties, live view and recording state.
    var driverCore: CameraDriverCore<DriverConnection> { get }
}

extension DriverBackedCamera {
    /// Where the camera is in its connection's life.
    public var connectionState: CameraConnectionState { driverCore.connectionState }

    /// How the last connection ended: asked for, or with the error that ended it; `nil` while connected.
    public var lastDisconnection: CameraDisconnection? { driverCore.lastDisconnection }

    /// Calls `observer` with the new state whenever ``Camera/connectionState`` changes, until the token is released.
    public func addConnectionStateObserver(_ observer: @escaping @Sendable (CameraConnectionState) -> Void)
        -> ObservationToken
    {
        driverCore.addConnectionStateObserver(observer)
    }

    /// Connects, and starts following the camera; see ``CameraDriverCore/connect()``.
    public func connect() async throws {
        try await driverCore.connect()
    }

    /// Closes the connection; a call while connecting waits for the connection first.
    public func disconnect() async throws {
        try await driverCore.disconnect()
    }

    /// Closes the connection through the camera's driver, turning the camera off first when `poweringOffCamera` is
    /// `true`.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot be turned off, before anything is
    ///   closed; what the camera answered to being turned off, once the connection is closed.
    public func disconnect(poweringOffCamera: Bool) async throws {
        try await driverCore.disconnect(poweringOffCamera: poweringOffCamera)
    }

    /// The maker, model, serial number and firmware version of the connected camera; `nil` until connected.
    public var deviceInfo: CameraDeviceInfo? { driverCore.deviceInfo }

    /// What the camera can do through its driver; empty until connected.
    public var supportedFunctionality: CameraFunctionality { driverCore.supportedFunctionality }

    /// The camera's property for an identifier, the same object for every call; `nil`-valued until the camera
    /// reports it.
    public func property<Value>(for identifier: CameraPropertyIdentifier<Value>) -> TypedCameraProperty<Value> {
        driverCore.property(for: identifier)
    }

    /// The identifiers of the properties the connected camera has reported; empty while not connected.
    public var knownPropertyIdentifiers: Set<AnyCameraPropertyIdentifier> { driverCore.knownPropertyIdentifiers }

    /// The properties of `category` that have a value now, by name.
    public func populatedProperties(in category: CameraPropertyCategory) -> [any CameraProperty] {
        driverCore.populatedProperties(in: category)
    }

    /// Sends a property's new value through the camera's driver, returning once the camera has taken it.
    ///
    /// - Throws: ``ViewfinderError/Code/invalidPropertyValue`` when the camera refuses the value,
    ///   ``ViewfinderError/Code/notAvailable`` when the camera does not let the property be set now (its exposure
    ///   mode sets it) or does not have it, ``ViewfinderError/Code/deviceBusy``,
    ///   ``ViewfinderError/Code/notConnected``, or ``ViewfinderError/Code/disconnected`` or
    ///   ``ViewfinderError/Code/timeout`` when the camera went away.
    public func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        try await driverCore.setRawValue(rawValue, forPropertyNamed: name)
    }

    /// Asks the camera, through its driver, to move a stepping property `steps` steps up or down.
    public func stepValue(forPropertyNamed name: String, by steps: Int) async throws {
        try await driverCore.stepValue(forPropertyNamed: name, by: steps)
    }

    /// Takes one picture and returns once the camera has taken it.
    ///
    /// The picture's file then appears on the card; new-file observers hear of it. With `engageAutoFocus`, a
    /// driver that can drive the camera's autofocus focuses first and fails when the camera cannot focus; otherwise
    /// the camera focuses as its focus mode says.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot take pictures through its driver, or
    ///   could not focus, ``ViewfinderError/Code/deviceBusy`` while another capture is under way,
    ///   ``ViewfinderError/Code/timeout`` when the camera does not report the capture in time, or what the camera
    ///   answered.
    public func invokeOneShotShutterExplicitlyEngagingAutoFocus(_ engageAutoFocus: Bool) async throws {
        try await driverCore.invokeOneShotShutterExplicitlyEngagingAutoFocus(engageAutoFocus)
    }

    /// Presses the shutter button half down through the camera's driver and holds it until
    /// ``Camera/disengageAutoFocus()``, returning once the camera has taken the press (and focused, for cameras that
    /// say when they have).
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera's shutter button cannot be held half down
    ///   through its driver or the camera could not focus, or what the camera answered.
    public func engageAutoFocus() async throws {
        try await driverCore.engageAutoFocus()
    }

    /// Lets go of the half-pressed shutter button through the camera's driver.
    public func disengageAutoFocus() async throws {
        try await driverCore.disengageAutoFocus()
    }

    /// Whether the shutter button is held half down by ``Camera/engageAutoFocus()``.
    public var autoFocusEngaged: Bool { driverCore.autoFocusEngaged }

    /// Calls `observer` whenever ``Camera/autoFocusEngaged`` changes, until the token is released.
    public func addAutoFocusEngagedObserver(_ observer: @escaping @Sendable (Bool) -> Void) -> ObservationToken {
        driverCore.addAutoFocusEngagedObserver(observer)
    }

    /// Presses the shutter button fully down through the camera's driver and holds it until
    /// ``Camera/disengageShutter()``.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera's shutter cannot be held through its driver,
    ///   ``ViewfinderError/Code/alreadyRunning`` while it is held, ``ViewfinderError/Code/deviceBusy`` while a
    ///   picture is being taken, or what the camera answered.
    public func engageShutter() async throws {
        try await driverCore.engageShutter()
    }

    /// Lets go of the shutter button through the camera's driver, returning once the camera has taken the picture.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera's shutter cannot be held through its driver or
    ///   is not held, ``ViewfinderError/Code/timeout`` when the camera reports no picture in time, or what the camera
    ///   answered.
    public func disengageShutter() async throws {
        try await driverCore.disengageShutter()
    }

    /// Moves the lens's focus one step through the camera's driver, returning once the camera has taken it.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot drive its focus through its driver,
    ///   when live view is off or the lens is at the end of its travel; or what the camera answered.
    public func driveFocus(_ amount: FocusDriveAmount, towards direction: FocusDriveDirection) async throws {
        try await driverCore.driveFocus(amount, towards: direction)
    }

    /// Where the camera's autofocus points are, as its driver last reported.
    public var focusInfo: FocusInfo? { driverCore.focusInfo }

    /// Calls `observer` whenever ``Camera/focusInfo`` changes, until the token is released.
    public func addFocusInfoObserver(_ observer: @escaping @Sendable (FocusInfo?) -> Void) -> ObservationToken {
        driverCore.addFocusInfoObserver(observer)
    }

    /// Moves the autofocus point to `point` and focuses there through the camera's driver.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot focus at a live view point through its
    ///   driver, or what the camera answered.
    public func touchAutoFocus(at point: LiveViewPoint) async throws {
        try await driverCore.touchAutoFocus(at: point)
    }

    /// What the camera offers its client, from its driver's functionality.
    public var supportedCommandCategories: CameraCommandCategories { driverCore.supportedCommandCategories }

    /// What the camera serves now, as its driver says.
    public var currentCommandCategories: CameraCommandCategories { driverCore.currentCommandCategories }

    /// Makes the camera serve `categories` through its driver, returning once it does.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` for a category the camera does not offer or when the camera
    ///   refuses the switch; ``ViewfinderError/Code/invalidArgument`` for categories it serves only one at a time.
    public func switchToCommandCategories(_ categories: CameraCommandCategories) async throws {
        try await driverCore.switchToCommandCategories(categories)
    }

    /// Magnifies the live view through the camera's driver, returning once the camera has taken it.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot zoom its live view through its driver;
    ///   ``ViewfinderError/Code/invalidArgument`` for a level the camera does not offer; or what the camera answered.
    public func setLiveViewZoomLevel(_ level: LiveViewZoomLevel) async throws {
        try await driverCore.setLiveViewZoomLevel(level)
    }

    /// How far the live view is magnified, as the camera last reported it or as it was last set; `nil` while not
    /// known.
    public var liveViewZoomLevel: LiveViewZoomLevel? { driverCore.liveViewZoomLevel }

    /// The levels the camera's driver magnifies live view to, from the whole picture to the most magnified.
    public var liveViewZoomLevels: [LiveViewZoomLevel] { driverCore.liveViewZoomLevels }

    /// Calls `observer` whenever ``Camera/liveViewZoomLevel`` changes, until the token is released.
    public func addLiveViewZoomLevelObserver(_ observer: @escaping @Sendable (LiveViewZoomLevel?) -> Void)
        -> ObservationToken
    {
        driverCore.addLiveViewZoomLevelObserver(observer)
    }

    /// Moves the magnified part of the live view through the camera's driver, returning once the camera has taken it.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot move it through its driver;
    ///   ``ViewfinderError/Code/invalidArgument`` for a point outside the picture; or what the camera answered.
    public func setLiveViewZoomCenter(_ center: LiveViewPoint) async throws {
        try await driverCore.setLiveViewZoomCenter(center)
    }

    /// Sets the camera's clock through the camera's driver, returning once the camera has taken it.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera's clock cannot be set through its driver, or
    ///   what the camera answered.
    public func updateClock(to time: CameraClockTime) async throws {
        try await driverCore.updateClock(to: time)
    }

    /// Reads the camera's clock through the camera's driver.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera's clock cannot be read through its driver, or
    ///   what the camera answered.
    public func readClock() async throws -> CameraClockTime {
        try await driverCore.readClock()
    }

    /// The camera's live view, the same publisher for every call; see ``CameraDriverCore/liveViewPublisher``.
    public var liveViewPublisher: LiveViewPublisher { driverCore.liveViewPublisher }

    /// Whether the camera records video, with the time recorded so far as its timer.
    public var videoRecordingState: VideoRecordingState { driverCore.videoRecordingState }

    /// Calls `observer` whenever ``Camera/videoRecordingState`` changes, each tick of the timer included, until the
    /// token is released.
    public func addVideoRecordingStateObserver(_ observer: @escaping @Sendable (VideoRecordingState) -> Void)
        -> ObservationToken
    {
        driverCore.addVideoRecordingStateObserver(observer)
    }

    /// Starts recording a movie to the card, turning on whatever the camera needs for it (live view, for some).
    ///
    /// ``Camera/videoRecordingState`` then shows the time recorded, updated once a second.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot record through its driver,
    ///   ``ViewfinderError/Code/alreadyRunning`` while it records, or what the camera answered.
    public func startVideoRecording() async throws {
        try await driverCore.startVideoRecording()
    }

    /// Stops recording; the camera finishes writing the movie to the card by itself.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot record through its driver, or when it
    ///   is not recording.
    public func stopVideoRecording() async throws {
        try await driverCore.stopVideoRecording()
    }

    /// Calls `observer` with each file the camera reports added to its card, such as a picture just taken.
    public func addNewFileObserver(_ observer: @escaping @Sendable (CameraFileItem) -> Void) -> ObservationToken {
        driverCore.addNewFileObserver(observer)
    }
}

extension DriverBackedCamera where Self: CameraFileAccess {
    /// Calls `handler` with each picture the camera's connection reports held for the computer.
    public func addCameraInitiatedTransferHandler(
        _ handler: @escaping @Sendable (CameraInitiatedTransferRequest) -> Void
    ) -> ObservationToken {
        driverCore.transferOffers.addObserver { [weak self] offers in
            for offer in offers {
                guard let self else { return }
                handler(
                    CameraInitiatedTransferRequest(
                        file: offer.item, camera: self, isOnlyDestination: true,
                        executionRequiredToClearBuffer: true, connectionIsCurrent: offer.connectionIsCurrent))
            }
        }
    }

    /// How many reports of new files, pictures offered the computer and shot previews were dropped because their
    /// observers fell behind; see ``CameraDriverCore/droppedFileEventCount``.
    public var droppedFileEventCount: Int { driverCore.droppedFileEventCount }

    /// Calls `observer` with a preview of each picture the camera's connection reports written to the card.
    public func addShotPreviewObserver(_ observer: @escaping @Sendable (CameraShotPreview) -> Void) -> ObservationToken
    {
        driverCore.shotPreviews.addObserver { [weak self] offers in
            for offer in offers {
                guard let self else { return }
                observer(
                    CameraShotPreview(file: offer.item, camera: self, connectionIsCurrent: offer.connectionIsCurrent))
            }
        }
    }
}
