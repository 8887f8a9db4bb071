/// A camera Viewfinder controls: its connection, identity, typed properties, shutter and video recording.
///
/// Network cameras (PTP/IP) conform; a camera that also gives access to the files on its card conforms to
/// ``CameraFileAccess`` as well. Every camera has one ``liveViewPublisher``; ``supportedFunctionality`` says whether
/// the camera offers live view, and a camera without it fails its subscribers with
/// ``ViewfinderError/Code/notAvailable``.
///
/// ```swift
/// try await camera.connect()
/// print(camera.deviceInfo?.model ?? "unknown model")
///
/// let isoProperty = camera.property(for: .iso)  // a TypedCameraProperty<ISOValue>
/// try await isoProperty.setValue(.iso400)
/// try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
/// try await camera.disconnect()
/// ```
///
/// Every member may be called from any thread; none needs a run loop. Each async operation has a variant with a
/// completion handler that runs on a queue of the caller's choice.
///
/// ## Implementing a camera
///
/// Write a driver: a ``CameraDriverConnection`` that speaks the camera's protocol, opened by a
/// ``CameraDriverCore`` that keeps the rest (connection states, teardown, properties, live view, the recording
/// timer, observers). A type that holds the core and conforms to ``DriverBackedCamera`` is a `Camera`.
public protocol Camera: AnyObject, Sendable {
    // MARK: Connection

    /// Where the camera is in its connection's life.
    var connectionState: CameraConnectionState { get }

    /// Calls `observer` with the new state whenever ``connectionState`` changes.
    ///
    /// Observers are called one at a time, in order, outside the camera's locks, on the thread that changed the
    /// state. A burst of changes may reach an observer as its last state only.
    ///
    /// - Returns: A token that keeps the observation: it ends when the token is released or cancelled.
    func addConnectionStateObserver(_ observer: @escaping @Sendable (CameraConnectionState) -> Void)
        -> ObservationToken

    /// How the last connection ended; `nil` while connected or before the first connection.
    ///
    /// Read it when ``connectionState`` becomes ``CameraConnectionState/notConnected``: a disconnection that
    /// ``disconnect()`` did not ask for carries the error that ended it, such as a closed socket or a camera that
    /// stopped answering.
    var lastDisconnection: CameraDisconnection? { get }

    /// Connects to the camera, returning once it is ready for use; does nothing when already connected.
    ///
    /// - Throws: ``ViewfinderError`` such as ``ViewfinderError/Code/connectionFailed`` or
    ///   ``ViewfinderError/Code/timeout``; the camera is then ``CameraConnectionState/notConnected``.
    func connect() async throws

    /// Disconnects from the camera, returning once the connection is closed; does nothing when not connected.
    ///
    /// ``lastDisconnection`` then reads ``CameraDisconnection/requested``.
    func disconnect() async throws

    /// Closes the connection as ``disconnect()`` does, turning the camera off first when `poweringOffCamera` is
    /// `true`.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/powerOffOnDisconnect``, before
    ///   anything is closed; what the camera answered to being turned off, once the connection is closed.
    func disconnect(poweringOffCamera: Bool) async throws

    // MARK: Identity

    /// Who made the camera and which model and unit it is; `nil` until connected.
    var deviceInfo: CameraDeviceInfo? { get }

    /// What the camera can do over this connection; empty until connected.
    var supportedFunctionality: CameraFunctionality { get }

    // MARK: Command categories

    /// What the camera offers its client: shooting stills, its files, video; empty until connected.
    var supportedCommandCategories: CameraCommandCategories { get }

    /// What the camera serves now: all it offers for most cameras, one of them at a time for some (Fujifilm bodies
    /// over WiFi), which ``switchToCommandCategories(_:)`` and the operations themselves switch between.
    var currentCommandCategories: CameraCommandCategories { get }

    /// Makes the camera serve `categories`, returning once it does; a camera serving them already is left as it is.
    ///
    /// ```swift
    /// try await camera.switchToCommandCategories(.fileAccess)
    /// ```
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` for a category the camera does not offer or when the camera
    ///   refuses the switch; ``ViewfinderError/Code/invalidArgument`` for categories a camera serves only one at a
    ///   time, asked together.
    func switchToCommandCategories(_ categories: CameraCommandCategories) async throws

    // MARK: Properties

    /// The camera's property for an identifier, the same object for every call with that identifier.
    ///
    /// The property exists whether or not the camera has it: until the camera reports it, its current value is
    /// `nil` and it has no valid settable values.
    ///
    /// ```swift
    /// let shutterSpeed = camera.property(for: .shutterSpeed)  // a TypedCameraProperty<ShutterSpeedValue>
    /// ```
    func property<Value>(for identifier: CameraPropertyIdentifier<Value>) -> TypedCameraProperty<Value>

    /// The identifiers of the properties the connected camera has reported, with a value or values to set them to;
    /// empty while not connected.
    ///
    /// ```swift
    /// let exposure = camera.knownPropertyIdentifiers.filter { $0.category == .exposureSetting }
    /// ```
    var knownPropertyIdentifiers: Set<AnyCameraPropertyIdentifier> { get }

    /// The properties of `category` that have a value now, by name, such as battery level and shots available for
    /// ``CameraPropertyCategory/information``.
    func populatedProperties(in category: CameraPropertyCategory) -> [any CameraProperty]

    // MARK: Shutter

    /// Takes one picture, focusing first when `engageAutoFocus` is `true` and the lens is in autofocus.
    ///
    /// Returns once the camera has taken the picture; the file appears on the card afterwards.
    ///
    /// - Throws: ``ViewfinderError`` such as ``ViewfinderError/Code/notConnected``,
    ///   ``ViewfinderError/Code/deviceBusy``, or ``ViewfinderError/Code/notAvailable`` without
    ///   ``CameraFunctionality/stillCapture``.
    func invokeOneShotShutterExplicitlyEngagingAutoFocus(_ engageAutoFocus: Bool) async throws

    /// Presses the shutter button half down, as a photographer does to focus, and holds it there until
    /// ``disengageAutoFocus()``; returns once the camera has taken the press, and for cameras that say when they have
    /// focused (Nikon), once they have.
    ///
    /// ``engageShutter()`` while it is held takes the picture with that focus.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/shutterHalfPress`` or when the
    ///   camera could not focus, or what the camera answered.
    func engageAutoFocus() async throws

    /// Lets go of the half-pressed shutter button that ``engageAutoFocus()`` holds.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/shutterHalfPress``, or what
    ///   the camera answered.
    func disengageAutoFocus() async throws

    /// Whether the shutter button is held half down by ``engageAutoFocus()``; `false` while not connected.
    var autoFocusEngaged: Bool { get }

    /// Calls `observer` with the new value whenever ``autoFocusEngaged`` changes.
    ///
    /// - Returns: A token that keeps the observation: it ends when the token is released or cancelled.
    func addAutoFocusEngagedObserver(_ observer: @escaping @Sendable (Bool) -> Void) -> ObservationToken

    /// Presses the shutter button fully down and holds it there until ``disengageShutter()``, focusing first only
    /// when ``engageAutoFocus()`` holds it half down.
    ///
    /// With the shutter speed at bulb the exposure lasts until the shutter is let go; otherwise the camera takes its
    /// picture as its drive mode says.
    ///
    /// ```swift
    /// try await camera.engageShutter()
    /// try await Task.sleep(for: .seconds(30))
    /// try await camera.disengageShutter()  // a 30 s exposure
    /// ```
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/heldShutter``,
    ///   ``ViewfinderError/Code/alreadyRunning`` while the shutter is held, ``ViewfinderError/Code/deviceBusy``
    ///   while a picture is being taken, or what the camera answered.
    func engageShutter() async throws

    /// Lets go of the shutter button that ``engageShutter()`` holds, returning once the camera has taken the
    /// picture; its file then appears as any other.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/heldShutter`` or when the
    ///   shutter is not held, ``ViewfinderError/Code/timeout`` when the camera reports no picture in time, or what the
    ///   camera answered.
    func disengageShutter() async throws

    // MARK: Focus

    /// Moves the lens's focus one step of `amount` towards the camera or towards infinity, returning once the
    /// camera has taken the step.
    ///
    /// Cameras drive their focus motor only while live view is on and the lens is set to autofocus; the size of each
    /// step is the camera's own.
    ///
    /// ```swift
    /// for _ in 0..<5 {
    ///     try await camera.driveFocus(.small, towards: .towardsInfinity)
    /// }
    /// ```
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/directFocusDrive``, when
    ///   live view is off or the lens is at the end of its travel; or what the camera answered.
    func driveFocus(_ amount: FocusDriveAmount, towards direction: FocusDriveDirection) async throws

    /// Where the camera's autofocus points are and which it uses, as it last said; `nil` until it says, while not
    /// connected, and for cameras without ``CameraFunctionality/focusInfo``.
    ///
    /// Nikon bodies say with each live view frame, so the value follows live view; Canon EOS bodies report it in
    /// their events.
    var focusInfo: FocusInfo? { get }

    /// Calls `observer` with the new value whenever ``focusInfo`` changes.
    ///
    /// - Returns: A token that keeps the observation: it ends when the token is released or cancelled.
    func addFocusInfoObserver(_ observer: @escaping @Sendable (FocusInfo?) -> Void) -> ObservationToken

    /// Moves the autofocus point to `point` of the live view and focuses there, returning once the camera has
    /// focused.
    ///
    /// `point` is in the coordinates of the live view frames' ``LiveViewGeometry/aspect``; live view must be on.
    ///
    /// ```swift
    /// let aspect = frame.geometry.aspect
    /// try await camera.touchAutoFocus(at: LiveViewPoint(x: aspect.width / 4, y: aspect.height / 2))
    /// ```
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/touchAutoFocus``, while live
    ///   view is off, or when the camera could not focus; ``ViewfinderError/Code/invalidArgument`` for a point
    ///   outside the picture; or what the camera answered.
    func touchAutoFocus(at point: LiveViewPoint) async throws

    // MARK: Clock

    /// Sets the camera's clock to `time`, returning once the camera has taken it.
    ///
    /// ```swift
    /// try await camera.updateClock(to: .now())
    /// ```
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/clockUpdate``, or what the
    ///   camera answered.
    func updateClock(to time: CameraClockTime) async throws

    /// Reads the camera's clock.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/clockUpdate``, or what the
    ///   camera answered.
    func readClock() async throws -> CameraClockTime

    // MARK: Live view

    /// The camera's live view, the same publisher for every call.
    ///
    /// Live view starts when a subscriber first asks for a frame and ends shortly after the last subscriber leaves;
    /// frames are fetched only as fast as subscribers ask. See ``LiveViewPublisher``.
    ///
    /// ```swift
    /// let cancellable = camera.liveViewPublisher.sinkWithReadyHandler { completion in
    ///     print("Live view ended with completion reason: \(completion)")
    /// } receiveValue: { frame, readyForNextFrame in
    ///     show(frame.pixelBuffer)
    ///     readyForNextFrame()
    /// }
    /// ```
    var liveViewPublisher: LiveViewPublisher { get }

    /// Magnifies the live view to `level`, returning once the camera has taken it; frames that follow show the
    /// magnified part of the picture.
    ///
    /// Cameras offer a few levels of their own (Canon EOS bodies 1, 5 and 10) and magnify around the area they
    /// keep for it, the autofocus area unless it was moved.
    ///
    /// ```swift
    /// try await camera.setLiveViewZoomLevel(LiveViewZoomLevel(zoomFactor: 5))
    /// ```
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/liveViewZoom``;
    ///   ``ViewfinderError/Code/invalidArgument`` for a level the camera does not offer; or what the camera answered.
    func setLiveViewZoomLevel(_ level: LiveViewZoomLevel) async throws

    // MARK: Video recording

    /// Whether the camera is recording video, with its timer.
    var videoRecordingState: VideoRecordingState { get }

    /// Calls `observer` with the new state whenever ``videoRecordingState`` changes, timer ticks included.
    ///
    /// - Returns: A token that keeps the observation: it ends when the token is released or cancelled.
    func addVideoRecordingStateObserver(_ observer: @escaping @Sendable (VideoRecordingState) -> Void)
        -> ObservationToken

    /// Starts recording video.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/videoRecording``, or what
    ///   the camera answered.
    func startVideoRecording() async throws

    /// Stops recording video.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` without ``CameraFunctionality/videoRecording``, or what
    ///   the camera answered.
    func stopVideoRecording() async throws
}
