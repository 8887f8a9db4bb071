import ViewfinderCore
import ViewfinderSystem

/// A camera that speaks PTP, over any transport: a `Camera` with typed properties, shutter, video recording and
/// live view where the camera offers them, and its card's files.
///
/// A camera is a session (``PTPSession``, over the transport its ``PTPEndpoint`` opens) plus a dialect, the
/// vendor's way of speaking PTP, chosen from what the camera says about itself when it connects. `ViewfinderPTPIP`
/// makes cameras on the network:
///
/// ```swift
/// let camera = PTPCamera(host: "192.168.1.1")
/// try await camera.connect()
/// print(camera.deviceInfo?.model ?? "unknown model")
///
/// let iso = camera.property(for: .iso)
/// try await iso.setValue(.iso800)              // returns once the camera shows ISO 800
/// try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
/// try await camera.disconnect()
/// ```
///
/// ## The connection
///
/// ``connect()`` opens the transport and a session, reads the camera's device information, runs the dialect's
/// opening steps and reads every property the dialect knows, and then follows the camera's events: a property the
/// camera reports changed is read again, so its value and valid settable values stay current (changing the
/// exposure mode changes which settings can be set); a file that appears on the card is reported to new-file
/// observers. When the camera closes the connection, or stops answering, the camera becomes
/// `CameraConnectionState/notConnected` and ``lastDisconnection`` carries the error. A call under way then, and
/// every call until the camera connects again, throws that error (`ViewfinderError/Code/disconnected` or
/// `ViewfinderError/Code/timeout`, saying the camera went away); `ViewfinderError/Code/notConnected` means the
/// camera never connected or was disconnected on request.
///
/// ## Live view
///
/// ``liveViewPublisher`` delivers the dialect's live view at the pace of its subscribers' demand; a
/// `LiveViewFrameSource` feeds it to a `DataCaptureContext`.
///
/// ## Threads
///
/// Every member may be called from any thread. Observers are called outside the camera's locks, on the thread that
/// saw the change; no run loop is needed.
public final class PTPCamera: Camera, CameraFileAccess, CameraPropertyBackend {
    /// What a connection made: the session, the dialect that speaks to the camera, and what it can do.
    struct Link: Sendable {
        let session: PTPSession
        let dialect: any PTPDialect
        let functionality: CameraFunctionality
        /// Counts connections, so that work for an earlier one is recognised.
        let generation: UInt64

        var deviceInfo: PTPDeviceInfo { session.deviceInfo }
    }

    struct State {
        var connection = CameraConnectionState.notConnected
        var lastDisconnection: CameraDisconnection?
        var link: Link?
        var connecting: Task<Void, any Error>?
        var generation: UInt64 = 0
        var recording: Recording?
    }

    /// Where the camera is and how it is reached.
    public let endpoint: any PTPEndpoint
    /// How long the camera waits for things, and how it delivers live view.
    public let configuration: Configuration

    let state = Locked(State())
    let properties: CameraPropertyStore
    let connectionObservers = CameraObserverRegistry<CameraConnectionState>()
    let recordingObservers = CameraObserverRegistry<VideoRecordingState>()
    let newFileObservers = CameraObserverRegistry<CameraFileItem>()
    /// The live view backend and publisher, made on first use.
    let liveView = Locked<(backend: PTPLiveView, publisher: LiveViewPublisher)?>(nil)

    /// Creates a camera at `endpoint`; nothing happens until ``connect()``.
    ///
    /// - Parameters:
    ///   - endpoint: Where the camera is, such as a `PTPIPEndpoint` for a camera on the network.
    ///   - configuration: The timeouts and live view settings.
    public init(endpoint: any PTPEndpoint, configuration: Configuration = Configuration()) {
        self.endpoint = endpoint
        self.configuration = configuration
        properties = CameraPropertyStore(setValueTimeout: configuration.propertySetTimeout)
    }

    deinit {
        let (link, recording) = state.withLock { ($0.link, $0.recording) }
        recording?.ticker.cancel()
        if let link {
            link.dialect.connectionEnded(with: ViewfinderError(.notConnected, "the camera object was released"))
            Task { await link.session.close() }
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

    /// Connects, reads the camera's device information and properties, and starts following its events.
    ///
    /// A call while a connection is being made waits for it and shares its outcome.
    ///
    /// - Throws: `ViewfinderError` with `ViewfinderError/Code/connectionFailed` when nothing answers at the
    ///   endpoint, `ViewfinderError/Code/deviceBusy` when the camera serves another client or is disconnecting,
    ///   `ViewfinderError/Code/timeout` when it stops answering.
    public func connect() async throws {
        let (task, began) = try state.withLock { state throws(ViewfinderError) -> (Task<Void, any Error>?, Bool) in
            switch state.connection {
            case .connected:
                return (nil, false)
            case .connecting:
                return (state.connecting, false)
            case .disconnecting:
                throw ViewfinderError(
                    .deviceBusy, "the camera at \(endpoint) is disconnecting; connect again once it is not connected")
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

    /// Opens the session, chooses the dialect and lets it read what the camera has; runs once per connection, in
    /// the task ``connect()`` made.
    private func openLink(_ generation: UInt64) async throws {
        let session: PTPSession
        do {
            let transport = try await endpoint.openTransport()
            session = try await PTPSession.open(over: transport, configuration: configuration.session)
        } catch {
            failConnecting()
            throw error
        }
        let link: Link
        do {
            let connection = PTPConnection(session: session, camera: self, generation: generation)
            let dialect = try await PTPDialects.dialect(for: session.deviceInfo).open(connection)
            link = Link(
                session: session, dialect: dialect, functionality: dialect.functionality, generation: generation)
        } catch {
            await session.close()
            failConnecting()
            throw error
        }
        state.withLock { state in
            state.link = link
            state.connection = .connected
            state.connecting = nil
            state.lastDisconnection = nil
        }
        followEvents(of: link)
        connectionObservers.notify(.connected)
    }

    private func failConnecting() {
        state.withLock { state in
            state.connection = .notConnected
            state.connecting = nil
        }
        properties.resetAll(failingRequestsWith: ViewfinderError(.notConnected, "the camera did not connect"))
        connectionObservers.notify(.notConnected)
    }

    /// Closes the session with the camera; a call while connecting waits for the connection first.
    public func disconnect() async throws {
        if let connecting = state.withLock({ $0.connecting }) {
            _ = try? await connecting.value
        }
        let link = state.withLock { state -> Link? in
            guard state.connection == .connected, let link = state.link else { return nil }
            state.connection = .disconnecting
            return link
        }
        guard let link else { return }
        connectionObservers.notify(.disconnecting)
        existingLiveViewPublisher?.terminate(.endedNormally)
        await link.dialect.prepareToClose()
        await link.session.close()
        tearDown(link, disconnection: .requested)
    }

    /// Forgets a connection that ended: its session, dialect, property values and recording.
    ///
    /// - Parameter disconnection: How it ended: asked for, or with the error that ended it.
    private func tearDown(_ link: Link, disconnection: CameraDisconnection) {
        let (current, recording) = state.withLock { state -> (Bool, Recording?) in
            guard state.link?.generation == link.generation else { return (false, nil) }
            state.link = nil
            state.connection = .notConnected
            state.lastDisconnection = disconnection
            defer { state.recording = nil }
            return (true, state.recording)
        }
        guard current else { return }
        let error =
            disconnection.error.map { ViewfinderError($0.code, "the camera went away: \($0.message)") }
            ?? ViewfinderError(.disconnected, "the camera was disconnected")
        link.dialect.connectionEnded(with: error)
        if let failure = disconnection.error {
            existingLiveViewPublisher?.terminate(.failed(failure))
        }
        recording?.ticker.cancel()
        properties.resetAll(failingRequestsWith: error)
        if recording != nil {
            recordingObservers.notify(.notRecording)
        }
        connectionObservers.notify(.notConnected)
    }

    /// Passes the session's events to the dialect until the session ends, then records how it ended.
    private func followEvents(of link: Link) {
        let events = link.session.events
        let queue = PTPEventQueue(dialect: link.dialect, session: link.session)
        Task { [weak self] in
            var failure: ViewfinderError?
            do {
                for try await event in events {
                    guard self != nil else { return }
                    // Seen at once, the end of a capture above all; handled in turn, without holding up the next.
                    link.dialect.observe(event)
                    queue.enqueue(event)
                }
            } catch {
                failure = error as? ViewfinderError ?? ViewfinderError(.disconnected, "\(error)")
            }
            await queue.finish()
            self?.linkEnded(link, error: failure)
            // Release the ended session's thread and transport now rather than when the last reference goes.
            await link.session.close()
        }
    }

    /// Records a session that ended without ``disconnect()``.
    private func linkEnded(_ link: Link, error: ViewfinderError?) {
        let unexpected = state.withLock { $0.connection == .connected && $0.link?.generation == link.generation }
        guard unexpected else { return }
        let reason = error ?? ViewfinderError(.disconnected, "the camera ended the session")
        tearDown(link, disconnection: CameraDisconnection(error: reason))
    }

    /// The current connection, or an error that says there is none.
    ///
    /// While ``disconnect()`` runs, the connection is still given out: calls already under way, such as a live view
    /// fetch, finish or fail on the closing session after live view has ended normally, instead of racing the
    /// disconnection with an error of their own.
    ///
    /// - Throws: The error that ended the last connection (``ViewfinderError/Code/disconnected`` or
    ///   ``ViewfinderError/Code/timeout``, saying the camera went away) until the camera connects again after losing
    ///   its camera; ``ViewfinderError/Code/notConnected`` when it never connected or was disconnected on request.
    func requireLink(for activity: String) throws(ViewfinderError) -> Link {
        let (link, lost) = state.withLock { state in
            state.connection == .connected || state.connection == .disconnecting
                ? (state.link, nil) : (nil, state.connection == .notConnected ? state.lastDisconnection?.error : nil)
        }
        if let link {
            return link
        }
        if let lost {
            throw lostCameraError(lost, while: activity)
        }
        throw ViewfinderError(.notConnected, "cannot \(activity): the camera at \(endpoint) is not connected")
    }

    /// The current connection, for a call that needs `functionality`.
    ///
    /// - Throws: What ``requireLink(for:)`` throws, or ``ViewfinderError/Code/notAvailable`` when the camera cannot
    ///   do it through its dialect.
    func requireLink(_ functionality: CameraFunctionality, for activity: String) throws(ViewfinderError) -> Link {
        let link = try requireLink(for: activity)
        guard link.functionality.isSuperset(of: functionality) else {
            throw ViewfinderError(
                .notAvailable,
                "cannot \(activity): \(link.deviceInfo.model) offers no way to do it over PTP that Viewfinder speaks "
                    + "(\(type(of: link.dialect).name) dialect)")
        }
        return link
    }

    /// The error for a call that found `link`'s session ended under it: the error that ended the session, rather than
    /// the session's ``ViewfinderError/Code/notConnected`` for calls after its end.
    func lostSessionError(_ error: ViewfinderError, of link: Link, while activity: String) -> ViewfinderError {
        guard error.code == .notConnected, case .closed(let reason?) = link.session.state else { return error }
        return lostCameraError(reason, while: activity)
    }

    func lostCameraError(_ reason: ViewfinderError, while activity: String) -> ViewfinderError {
        ViewfinderError(
            reason.code, "cannot \(activity): the camera at \(endpoint) went away (\(reason.message)); connect again",
            errno: reason.errno)
    }

    /// The connection of `generation`, if it is still the current one.
    func currentLink(_ generation: UInt64) -> Link? {
        state.withLock { $0.link?.generation == generation ? $0.link : nil }
    }

    /// Whether the connection of `generation` is being opened.
    func isOpening(_ generation: UInt64) -> Bool {
        state.withLock { $0.connection == .connecting && $0.generation == generation }
    }

    // MARK: Identity

    /// The maker, model, serial number and firmware version from the camera's DeviceInfo; `nil` until connected.
    public var deviceInfo: CameraDeviceInfo? {
        state.withLock { $0.link }.map { link in
            let info = link.deviceInfo
            return CameraDeviceInfo(
                manufacturer: info.manufacturer, model: info.model, serialNumber: info.serialNumber,
                version: info.deviceVersion)
        }
    }

    /// What the camera can do through its dialect; empty until connected.
    public var supportedFunctionality: CameraFunctionality {
        state.withLock { $0.link?.functionality } ?? []
    }

    /// The camera's device information as PTP reports it; `nil` until connected.
    public var ptpDeviceInfo: PTPDeviceInfo? {
        state.withLock { $0.link?.deviceInfo }
    }

    /// The name of the dialect that speaks to the camera, such as `standard PTP`; `nil` until connected.
    public var dialectName: String? {
        state.withLock { $0.link.map { type(of: $0.dialect).name } }
    }
}
