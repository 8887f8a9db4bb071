import ViewfinderSystem

/// The lifecycle every camera shares, whatever protocol its driver speaks: connecting and disconnecting, connection
/// generations and teardown, the property store and its reset, live view, the recording timer and the observers.
///
/// A driver adds only its protocol: a ``CameraDriverConnection`` that the core opens through the closure it was
/// made with, once per ``connect()``. A camera type keeps one core and conforms to ``DriverBackedCamera``, which
/// gives it every member of ``Camera`` from the core:
///
/// ```swift
/// public final class LumixCamera: DriverBackedCamera {
///     public let driverCore: CameraDriverCore<LumixConnection>
///
///     public init(host: String) {
///         driverCore = CameraDriverCore(
///             location: host, configuration: .init(liveViewDecoder: JPEGLiveViewDecoder())
///         ) { context in
///             try await LumixConnection.open(host: host, context: context)
///         }
///     }
/// }
/// ```
///
/// ## The connection
///
/// ``connect()`` opens a connection and then lets it follow the camera (``CameraDriverConnection/run()``). When the
/// camera closes the connection, or stops answering, the camera becomes ``CameraConnectionState/notConnected`` and
/// ``lastDisconnection`` carries the error. A call under way then, and every call until the camera connects again,
/// throws that error (``ViewfinderError/Code/disconnected`` or ``ViewfinderError/Code/timeout``, saying the camera
/// went away); ``ViewfinderError/Code/notConnected`` means the camera never connected or was disconnected on request.
///
/// Every member may be called from any thread. Observers are called outside the core's locks.
public final class CameraDriverCore<Connection: CameraDriverConnection>: CameraPropertyBackend, Sendable {
    /// How long property sets wait, and how live view is delivered and decoded.
    public struct Configuration: Sendable {
        /// How long a set property waits by default for the camera to show the new value.
        public var propertySetTimeout: Duration
        /// The live view publisher's grace period, retries and warning output.
        public var liveView: LiveViewPublisher.Configuration
        /// What turns the connection's live view images into frames.
        public var liveViewDecoder: any LiveViewImageDecoder

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - propertySetTimeout: How long a set waits by default for the camera to show the new value.
        ///   - liveView: The live view publisher's grace period, retries and warning output.
        ///   - liveViewDecoder: What turns the connection's live view images into frames.
        public init(
            propertySetTimeout: Duration = .seconds(10),
            liveView: LiveViewPublisher.Configuration = LiveViewPublisher.Configuration(),
            liveViewDecoder: any LiveViewImageDecoder
        ) {
            self.propertySetTimeout = propertySetTimeout
            self.liveView = liveView
            self.liveViewDecoder = liveViewDecoder
        }
    }

    /// A connection the core opened, with the generation that tells it from the connections before and after.
    struct Link: Sendable {
        let connection: Connection
        let generation: UInt64
    }

    struct State {
        var connection = CameraConnectionState.notConnected
        var lastDisconnection: CameraDisconnection?
        var link: Link?
        var connecting: Task<Void, any Error>?
        var generation: UInt64 = 0
        var recording: Recording?
        /// Whether the shutter button is held half down.
        var autoFocusEngaged = false
        /// Where the autofocus points are, as the connection last reported.
        var focusInfo: FocusInfo?
        /// How far the live view is magnified, where known.
        var liveViewZoomLevel: LiveViewZoomLevel?
    }

    /// Where the camera is, for messages, such as its host name.
    public let location: String
    /// How long property sets wait, and how live view is delivered and decoded.
    public let configuration: Configuration

    private let open: @Sendable (CameraDriverContext) async throws -> Connection
    let state = Locked(State())
    let properties: CameraPropertyStore
    let connectionObservers = CameraObserverRegistry<CameraConnectionState>()
    let recordingObservers = CameraObserverRegistry<VideoRecordingState>()
    let autoFocusObservers = CameraObserverRegistry<Bool>()
    let focusInfoObservers = CameraObserverRegistry<FocusInfo?>()
    let zoomObservers = CameraObserverRegistry<LiveViewZoomLevel?>()
    /// The observers of files the camera adds: files reported while an observer is still being called wait for it,
    /// in order, up to ``fileEventLimit``; beyond it the oldest are dropped and counted.
    let newFileObservers = CameraObserverRegistry<[CameraFileItem]>(keepingNewest: fileEventLimit)
    /// The observers of pictures the camera offers the computer; they wait as new files do.
    let transferOffers = CameraObserverRegistry<[CameraTransferOffer]>(keepingNewest: fileEventLimit)
    /// The observers of previews of pictures written to the card; they wait as new files do.
    let shotPreviews = CameraObserverRegistry<[CameraTransferOffer]>(keepingNewest: fileEventLimit)
    /// The live view backend and publisher, made on first use.
    let liveView = Locked<(backend: CameraDriverLiveView<Connection>, publisher: LiveViewPublisher)?>(nil)

    /// Creates the core of a camera; nothing happens until ``connect()``.
    ///
    /// - Parameters:
    ///   - location: Where the camera is, for messages, such as its host name.
    ///   - configuration: How long property sets wait, and how live view is delivered and decoded.
    ///   - open: Opens a connection to the camera, reporting through the context it is given; called once per
    ///     connection. An error it throws fails the connection.
    public init(
        location: String, configuration: Configuration,
        open: @escaping @Sendable (CameraDriverContext) async throws -> Connection
    ) {
        self.location = location
        self.configuration = configuration
        self.open = open
        properties = CameraPropertyStore(setValueTimeout: configuration.propertySetTimeout)
    }

    deinit {
        let (link, recording) = state.withLock { ($0.link, $0.recording) }
        recording?.ticker.cancel()
        if let link {
            link.connection.connectionEnded(with: ViewfinderError(.notConnected, "the camera object was released"))
            Task { await link.connection.close() }
        }
    }

    // MARK: Connection

    /// Where the camera is in its connection's life.
    public var connectionState: CameraConnectionState { state.withLock { $0.connection } }

    /// How the last connection ended: asked for, or with the error that ended it; `nil` while connected.
    public var lastDisconnection: CameraDisconnection? { state.withLock { $0.lastDisconnection } }

    /// Calls `observer` with the new state whenever ``connectionState`` changes, until the token is released.
    public func addConnectionStateObserver(_ observer: @escaping @Sendable (CameraConnectionState) -> Void)
        -> ObservationToken
    {
        connectionObservers.addObserver(observer)
    }

    /// Opens a connection and starts following the camera; a call while a connection is being made waits for it
    /// and shares its outcome.
    ///
    /// - Throws: What the driver's opening throws, or ``ViewfinderError/Code/deviceBusy`` while the camera is
    ///   disconnecting.
    public func connect() async throws {
        let (task, began) = try state.withLock { state throws(ViewfinderError) -> (Task<Void, any Error>?, Bool) in
            switch state.connection {
            case .connected:
                return (nil, false)
            case .connecting:
                return (state.connecting, false)
            case .disconnecting:
                throw ViewfinderError(
                    .deviceBusy, "the camera at \(location) is disconnecting; connect again once it is not connected")
            case .notConnected:
                state.generation += 1
                let generation = state.generation
                let task = Task { try await self.openLink(generation) }
                state.connecting = task
                state.connection = .connecting
                return (task, true)
            }
        }
        if began {
            connectionObservers.notify(.connecting)
        }
        try await task?.value
    }

    /// Opens the driver's connection; runs once per connection, in the task ``connect()`` made.
    private func openLink(_ generation: UInt64) async throws {
        let connection: Connection
        do {
            connection = try await open(CameraDriverContext(host: self, generation: generation))
        } catch {
            failConnecting()
            throw error
        }
        let link = Link(connection: connection, generation: generation)
        state.withLock { state in
            state.link = link
            state.connection = .connected
            state.connecting = nil
            state.lastDisconnection = nil
        }
        follow(link)
        connectionObservers.notify(.connected)
    }

    private func failConnecting() {
        let wasZoomKnown = state.withLock { state in
            state.connection = .notConnected
            state.connecting = nil
            defer { state.liveViewZoomLevel = nil }
            return state.liveViewZoomLevel != nil
        }
        if wasZoomKnown {
            zoomObservers.notify(nil)
        }
        properties.resetAll(failingRequestsWith: ViewfinderError(.notConnected, "the camera did not connect"))
        connectionObservers.notify(.notConnected)
    }

    /// Closes the connection; a call while connecting waits for the connection first.
    public func disconnect() async throws {
        try await disconnect(poweringOffCamera: false)
    }

    /// Closes the connection, turning the camera off first when `poweringOffCamera` is `true`; a call while
    /// connecting waits for the connection first.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` when the camera cannot be turned off, before anything is
    ///   closed; what the camera answered to being turned off, once the connection is closed.
    public func disconnect(poweringOffCamera: Bool) async throws {
        if let connecting = state.withLock({ $0.connecting }) {
            _ = try? await connecting.value
        }
        if poweringOffCamera {
            _ = try connection(.powerOffOnDisconnect, for: "turn the camera off")
        }
        let link = state.withLock { state -> Link? in
            guard state.connection == .connected, let link = state.link else { return nil }
            state.connection = .disconnecting
            return link
        }
        guard let link else { return }
        connectionObservers.notify(.disconnecting)
        existingLiveViewPublisher?.terminate(.endedNormally)
        await link.connection.prepareToClose()
        var powerOffFailure: (any Error)?
        if poweringOffCamera {
            do {
                try await link.connection.powerOff()
            } catch {
                powerOffFailure = error
            }
        }
        await link.connection.close()
        tearDown(link, disconnection: .requested)
        if let powerOffFailure { throw powerOffFailure }
    }

    /// Forgets a connection that ended: its property values, recording, half press, focus information and live view
    /// zoom.
    ///
    /// - Parameter disconnection: How it ended: asked for, or with the error that ended it.
    private func tearDown(_ link: Link, disconnection: CameraDisconnection) {
        let (current, recording, wasFocusing, hadFocusInfo, wasZoomKnown) = state.withLock {
            state -> (Bool, Recording?, Bool, Bool, Bool) in
            guard state.link?.generation == link.generation else { return (false, nil, false, false, false) }
            state.link = nil
            state.connection = .notConnected
            state.lastDisconnection = disconnection
            defer {
                state.recording = nil
                state.autoFocusEngaged = false
                state.focusInfo = nil
                state.liveViewZoomLevel = nil
            }
            return (
                true, state.recording, state.autoFocusEngaged, state.focusInfo != nil, state.liveViewZoomLevel != nil
            )
        }
        guard current else { return }
        let error =
            disconnection.error.map { ViewfinderError($0.code, "the camera went away: \($0.message)") }
            ?? ViewfinderError(.disconnected, "the camera was disconnected")
        link.connection.connectionEnded(with: error)
        if let failure = disconnection.error {
            existingLiveViewPublisher?.terminate(.failed(failure))
        }
        recording?.ticker.cancel()
        properties.resetAll(failingRequestsWith: error)
        if recording != nil {
            recordingObservers.notify(.notRecording)
        }
        if wasFocusing {
            autoFocusObservers.notify(false)
        }
        if hadFocusInfo {
            focusInfoObservers.notify(nil)
        }
        if wasZoomKnown {
            zoomObservers.notify(nil)
        }
        connectionObservers.notify(.notConnected)
    }

    /// Lets the connection follow the camera until it ends, then records how it ended.
    private func follow(_ link: Link) {
        Task { [weak self] in
            let failure = await link.connection.run()
            self?.linkEnded(link, error: failure)
            // Release the ended connection's threads and sockets now rather than when the last reference goes.
            await link.connection.close()
        }
    }

    /// Records a connection that ended without ``disconnect()``.
    private func linkEnded(_ link: Link, error: ViewfinderError?) {
        let unexpected = state.withLock { $0.connection == .connected && $0.link?.generation == link.generation }
        guard unexpected else { return }
        let reason = error ?? ViewfinderError(.disconnected, "the camera ended the session")
        tearDown(link, disconnection: CameraDisconnection(error: reason))
    }

    // MARK: For drivers

    /// The current connection, or an error that says there is none.
    ///
    /// While ``disconnect()`` runs, the connection is still given out: calls already under way, such as a live view
    /// fetch, finish or fail on the closing connection after live view has ended normally, instead of racing the
    /// disconnection with an error of their own.
    ///
    /// - Throws: The error that ended the last connection (``ViewfinderError/Code/disconnected`` or
    ///   ``ViewfinderError/Code/timeout``, saying the camera went away) until the camera connects again after losing
    ///   it; ``ViewfinderError/Code/notConnected`` when it never connected or was disconnected on request.
    public func connection(for activity: String) throws(ViewfinderError) -> Connection {
        let (link, lost) = state.withLock { state in
            state.connection == .connected || state.connection == .disconnecting
                ? (state.link, nil) : (nil, state.connection == .notConnected ? state.lastDisconnection?.error : nil)
        }
        if let link {
            return link.connection
        }
        if let lost {
            throw lostCameraError(lost, while: activity)
        }
        throw ViewfinderError(.notConnected, "cannot \(activity): the camera at \(location) is not connected")
    }

    /// The current connection, for a call that needs `functionality`.
    ///
    /// - Throws: What ``connection(for:)`` throws, or ``ViewfinderError/Code/notAvailable`` when the camera cannot
    ///   do it through this connection.
    public func connection(_ functionality: CameraFunctionality, for activity: String) throws(ViewfinderError)
        -> Connection
    {
        let connection = try connection(for: activity)
        guard connection.functionality.isSuperset(of: functionality) else {
            throw ViewfinderError(
                .notAvailable,
                "cannot \(activity): \(connection.deviceInfo.model) offers no way to do it "
                    + connection.driverDescription)
        }
        return connection
    }

    /// The current connection, while connected or disconnecting; `nil` otherwise.
    public var currentConnection: Connection? {
        state.withLock { $0.link?.connection }
    }

    /// The error for a call on `connection` that failed with `error`: the error that ended the connection, saying the
    /// camera went away, when the call failed because the connection ended under it; `error` otherwise.
    public func passingOn(_ error: ViewfinderError, from connection: Connection, while activity: String)
        -> ViewfinderError
    {
        guard error.code == .notConnected, let reason = connection.endingError else { return error }
        return lostCameraError(reason, while: activity)
    }

    /// Runs `body` on the connection that `functionality` needs, passing on its errors as ``passingOn(_:from:while:)``
    /// does.
    ///
    /// - Throws: What ``connection(_:for:)`` throws, or what `body` throws.
    public func withConnection<Result: Sendable>(
        _ functionality: CameraFunctionality = [], for activity: String,
        _ body: (Connection) async throws -> Result
    ) async throws -> Result {
        let connection = try connection(functionality, for: activity)
        do {
            return try await body(connection)
        } catch let error as ViewfinderError {
            throw passingOn(error, from: connection, while: activity)
        }
    }

    // MARK: Identity

    /// The maker, model, serial number and firmware version of the connected camera; `nil` until connected.
    public var deviceInfo: CameraDeviceInfo? {
        currentConnection?.deviceInfo
    }

    /// What the camera can do through its connection; empty until connected.
    public var supportedFunctionality: CameraFunctionality {
        currentConnection?.functionality ?? []
    }

    // MARK: Command categories

    /// What the camera offers, from its functionality: stills with still capture, its files with file access, video
    /// with video recording; empty until connected.
    public var supportedCommandCategories: CameraCommandCategories {
        let functionality = supportedFunctionality
        var categories: CameraCommandCategories = []
        if functionality.contains(.stillCapture) { categories.insert(.stillsShooting) }
        if functionality.contains(.fileAccess) { categories.insert(.fileAccess) }
        if functionality.contains(.videoRecording) { categories.insert(.videoRecording) }
        return categories
    }

    /// What the camera serves now: what its connection says for a camera that serves one category at a time, else
    /// all it offers.
    public var currentCommandCategories: CameraCommandCategories {
        currentConnection?.currentCommandCategories ?? supportedCommandCategories
    }

    /// Makes the camera serve `categories` through the connection; a camera that serves all it offers at once, or
    /// serves them already, is left as it is.
    public func switchToCommandCategories(_ categories: CameraCommandCategories) async throws {
        try await withConnection(for: "switch command categories") { connection in
            let missing = categories.subtracting(supportedCommandCategories)
            guard missing.isEmpty else {
                throw ViewfinderError(
                    .notAvailable,
                    "cannot switch command categories: \(connection.deviceInfo.model) does not offer \(missing)")
            }
            guard let current = connection.currentCommandCategories, !current.isSuperset(of: categories) else {
                return
            }
            try await connection.switchToCommandCategories(categories)
        }
    }

    // MARK: Properties and the shutter

    /// The camera's property for an identifier, the same object for every call; `nil`-valued until the camera
    /// reports it.
    public func property<Value>(for identifier: CameraPropertyIdentifier<Value>) -> TypedCameraProperty<Value> {
        properties.property(for: identifier, backend: self)
    }

    /// The identifiers of the properties the camera has reported; empty while not connected.
    public var knownPropertyIdentifiers: Set<AnyCameraPropertyIdentifier> {
        properties.reportedIdentifiers
    }

    /// The properties of `category` that have a value now, by name.
    public func populatedProperties(in category: CameraPropertyCategory) -> [any CameraProperty] {
        properties.populatedProperties(in: category)
    }

    /// Sends a property's new value through the connection, returning once the camera has taken it.
    public func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        try await withConnection(for: "set \(name)") {
            try await $0.setRawValue(rawValue, forPropertyNamed: name)
        }
    }

    /// Asks the camera, through the connection, to move a stepping property `steps` steps up or down.
    public func stepValue(forPropertyNamed name: String, by steps: Int) async throws {
        try await withConnection(for: "step \(name)") {
            try await $0.stepValue(forPropertyNamed: name, by: steps)
        }
    }

    /// Takes one picture and returns once the camera has taken it.
    public func invokeOneShotShutterExplicitlyEngagingAutoFocus(_ engageAutoFocus: Bool) async throws {
        try await withConnection(.stillCapture, for: "take a picture") {
            try await $0.takePicture(engagingAutoFocus: engageAutoFocus)
        }
    }

    /// Moves the focus one step through the connection, returning once the camera has taken it.
    public func driveFocus(_ amount: FocusDriveAmount, towards direction: FocusDriveDirection) async throws {
        try await withConnection(.directFocusDrive, for: "drive the focus") {
            try await $0.driveFocus(amount, towards: direction)
        }
    }

    /// Sets the camera's clock through the connection, returning once the camera has taken it.
    public func updateClock(to time: CameraClockTime) async throws {
        try await withConnection(.clockUpdate, for: "set the clock") { try await $0.updateClock(to: time) }
    }

    /// Reads the camera's clock through the connection.
    public func readClock() async throws -> CameraClockTime {
        try await withConnection(.clockUpdate, for: "read the clock") { try await $0.readClock() }
    }

    /// Calls `observer` with each file the camera reports added to its card, such as a picture just taken.
    public func addNewFileObserver(_ observer: @escaping @Sendable (CameraFileItem) -> Void) -> ObservationToken {
        newFileObservers.addObserver { items in
            for item in items { observer(item) }
        }
    }

    /// How many reports of each kind wait for an observer still busy with an earlier one: 256.
    ///
    /// The kinds are new files, pictures offered the computer and shot previews. Beyond the limit the oldest are
    /// dropped, and counted in ``droppedFileEventCount``.
    public static var fileEventLimit: Int { 256 }

    /// How many reports of new files, pictures offered the computer and shot previews were dropped, oldest first,
    /// because their observers were busy while more than ``fileEventLimit`` of a kind arrived.
    public var droppedFileEventCount: Int {
        newFileObservers.droppedCount + transferOffers.droppedCount + shotPreviews.droppedCount
    }
}

extension CameraDriverCore: CameraDriverHost {
    func isCurrent(_ generation: UInt64) -> Bool {
        state.withLock { state in
            state.link?.generation == generation
                || (state.connection == .connecting && state.generation == generation)
        }
    }

    /// The error for a call that found the camera gone with `reason`: it says the camera went away, and to connect
    /// again.
    func lostCameraError(_ reason: ViewfinderError, while activity: String) -> ViewfinderError {
        ViewfinderError(
            reason.code, "cannot \(activity): the camera at \(location) went away (\(reason.message)); connect again",
            errno: reason.errno)
    }
}
