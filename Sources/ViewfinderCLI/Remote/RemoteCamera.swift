import Dispatch
import Viewfinder
import ViewfinderSystem

/// The camera a remote page controls: what the page shows of it, kept up to date by the camera's observers, and a
/// connection that comes back when the camera does.
///
/// Every change the camera reports (a property, its settable values, the connection, the recording timer, a new
/// file) makes a new ``Snapshot`` with a higher version; pages wait for a version newer than the one they show
/// (``snapshot(newerThan:until:)``), so they follow the camera without polling it. A camera that goes away is
/// reconnected every ``reconnectInterval`` until it answers again.
final class RemoteCamera: Sendable {
    /// What the page shows, as JSON.
    struct Snapshot: Encodable, Sendable {
        /// Rises with every change.
        var version = 0
        /// `connected`, `connecting`, `disconnecting` or `not connected`.
        var connection = "not connected"
        /// Why the camera is not connected, when it went away.
        var problem: String?
        /// The camera's maker and model, such as `Nikon Z 6`.
        var model: String?
        /// The exposure properties and the others the page offers, in the tool's order.
        var properties: [PropertyReading] = []
        /// Whether video is recording, and its timer, such as `00:12`.
        var recording = false
        var recordingTimer: String?
        /// What the camera can do now: `shutter`, `liveView`, `video`, `files`, `heldShutter`, `focusDrive`,
        /// `focusInfo`, `touchAF`.
        var abilities: [String] = []
        /// Rises when files are added, so the page knows to list them again.
        var filesVersion = 0
        /// Where the camera's autofocus points are, which the page draws over the live view.
        var focusInfo: FocusInfoJSON?
    }

    private struct State {
        var snapshot = Snapshot()
        var waiters: [Int: DispatchSemaphore] = [:]
        var nextWaiter = 0
        var tokens: [ObservationToken] = []
        var isStopped = false
    }

    /// The camera.
    let camera: any Camera
    /// How long the camera is given between attempts to connect again after it went away.
    static let reconnectInterval = Duration.seconds(2)
    private let state = Locked(State())
    private let maintenance = Locked<Task<Void, Never>?>(nil)

    /// Takes over a camera, connected or not.
    init(camera: any Camera) {
        self.camera = camera
    }

    /// Observes the camera and keeps it connected until ``stop()``.
    func start() {
        var tokens = [
            camera.addConnectionStateObserver { [weak self] _ in self?.refresh() },
            camera.addVideoRecordingStateObserver { [weak self] _ in self?.refresh() },
            camera.addFocusInfoObserver { [weak self] _ in self?.refresh() },
        ]
        tokens += CameraProperties.all.map { property in
            property.observe(camera) { [weak self] _ in self?.refresh() }
        }
        if let access = camera.fileAccess {
            tokens.append(access.addNewFileObserver { [weak self] _ in self?.refresh(filesChanged: true) })
        }
        state.withLock { $0.tokens = tokens }
        refresh(filesChanged: true)
        let task = Task { [weak self] in
            while !Task.isCancelled {
                await self?.reconnectIfGone()
                try? await Task.sleep(for: Self.reconnectInterval)
            }
        }
        maintenance.withLock { $0 = task }
    }

    /// Stops observing and reconnecting, wakes every waiting page, and disconnects the camera.
    func stop() async {
        maintenance.withLock { $0 }?.cancel()
        let waiters = state.withLock { state in
            state.isStopped = true
            state.tokens = []
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.signal() }
        try? await camera.disconnect()
    }

    /// Connects again when the camera went away on its own.
    private func reconnectIfGone() async {
        guard camera.connectionState == .notConnected, camera.lastDisconnection?.wasExpected != true else { return }
        do {
            try await camera.connect()
        } catch {
            state.withLock { $0.snapshot.problem = Self.problem(error) }
            refresh()
        }
    }

    /// Makes a new snapshot from the camera and wakes the pages that wait for one.
    func refresh(filesChanged: Bool = false) {
        let camera = camera
        let connection = camera.connectionState
        var fresh = Snapshot()
        fresh.connection = connection.description
        if connection == .connected {
            fresh.model = camera.deviceInfo.map { "\($0.manufacturer) \($0.model)" }
            fresh.properties = CameraProperties.all.map { $0.reading(of: camera) }.filter(\.isReported)
            if case .recording(let timer) = camera.videoRecordingState {
                fresh.recording = true
                fresh.recordingTimer = timer?.asMinutesAndSeconds
            }
            let functionality = camera.supportedFunctionality
            let abilities: [(CameraFunctionality, String)] = [
                (.stillCapture, "shutter"), (.liveView, "liveView"), (.videoRecording, "video"),
                (.fileAccess, "files"), (.heldShutter, "heldShutter"), (.directFocusDrive, "focusDrive"),
                (.focusInfo, "focusInfo"), (.touchAutoFocus, "touchAF"),
            ]
            fresh.abilities = abilities.filter { functionality.contains($0.0) }.map(\.1)
            fresh.focusInfo = camera.focusInfo.map(FocusInfoJSON.init)
        }
        let lost = camera.lastDisconnection.flatMap { $0.error?.message }
        let waiters = state.withLock { state -> [DispatchSemaphore] in
            fresh.version = state.snapshot.version + 1
            // The card may have changed while the camera was away.
            let reconnected = connection == .connected && state.snapshot.connection != fresh.connection
            fresh.filesVersion = state.snapshot.filesVersion + (filesChanged || reconnected ? 1 : 0)
            fresh.problem =
                connection == .connected
                ? nil : lost.map { "the camera went away: \($0)" } ?? state.snapshot.problem
            state.snapshot = fresh
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.signal() }
    }

    /// The snapshot, once its version is newer than `version` or at `deadline`; blocks the calling thread.
    func snapshot(newerThan version: Int, until deadline: ContinuousClock.Instant) -> Snapshot {
        let semaphore = DispatchSemaphore(value: 0)
        let (id, current) = state.withLock { state in
            defer { state.nextWaiter += 1 }
            state.waiters[state.nextWaiter] = semaphore
            return (state.nextWaiter, state.snapshot)
        }
        defer { state.withLock { _ = $0.waiters.removeValue(forKey: id) } }
        var snapshot = current
        while snapshot.version <= version, ContinuousClock.now < deadline {
            _ = semaphore.wait(timeout: DispatchTime(deadline))
            let (latest, stopped) = state.withLock { ($0.snapshot, $0.isStopped) }
            snapshot = latest
            if stopped { break }
        }
        return snapshot
    }

    /// The snapshot now.
    var current: Snapshot { state.withLock { $0.snapshot } }

    /// A problem for people, from an error of the camera.
    static func problem(_ error: any Error) -> String {
        (error as? ViewfinderError)?.message ?? (error as? CommandFailure)?.message ?? "\(error)"
    }
}
