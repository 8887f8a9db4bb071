import ViewfinderCore

/// What a ``PTPDialect`` works with for one connection: the session, and the camera's typed properties, new-file
/// observers and recording state to report to.
///
/// The connection holds the camera weakly: a dialect keeps it, and calls on it do nothing once the camera is gone
/// or has connected again.
final class PTPConnection: Sendable {
    /// The session of this connection.
    let session: PTPSession
    /// How the camera was configured: timeouts for captures, live view and property sets.
    let configuration: PTPCamera.Configuration
    private weak let camera: PTPCamera?
    private let generation: UInt64

    init(session: PTPSession, camera: PTPCamera, generation: UInt64) {
        self.session = session
        configuration = camera.configuration
        self.camera = camera
        self.generation = generation
    }

    /// What the camera said about itself when the session opened.
    var deviceInfo: PTPDeviceInfo { session.deviceInfo }

    /// The camera's model name, for messages.
    var model: String { session.deviceInfo.model }

    /// Passes a property's value and valid settable values to the camera's typed property.
    func update<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, currentValue: TypedCameraPropertyValue<Value>?,
        validSettableValues: CameraPropertySettableValues<Value>
    ) {
        guard let camera, isCurrent(camera) else { return }
        camera.property(for: identifier).update(currentValue: currentValue, validSettableValues: validSettableValues)
    }

    /// Tells the camera's new-file observers of a file the camera added, reading its information first.
    func reportNewObject(_ handle: UInt32) async {
        guard let camera, isCurrent(camera), camera.newFileObservers.hasObservers,
            deviceInfo.supports(.getObjectInfo), let info = try? await session.objectInfo(handle)
        else { return }
        reportNewFile(CameraFileItem(handle: handle, info: info))
    }

    /// Tells the camera's new-file observers of a file the camera added.
    func reportNewFile(_ item: CameraFileItem) {
        guard let camera, isCurrent(camera) else { return }
        camera.newFileObservers.notify(item)
    }

    /// Records that the camera records video, unless that is known already, and starts the timer's ticks.
    func recordingStarted() {
        guard let camera, isCurrent(camera) else { return }
        camera.beginRecording()
    }

    /// Records that the camera stopped recording video.
    func recordingStopped() {
        guard let camera, isCurrent(camera) else { return }
        camera.endRecording()
    }

    /// How long a capture's request may wait for the camera: the exposure time the camera shows plus 100 s, as a
    /// camera may answer only after a long exposure and the writing of the file; the capture timeout for a bulb or
    /// unknown exposure.
    var captureRequestTimeout: Duration {
        let seconds = camera?.property(for: .shutterSpeed).commonValue?.approximateSeconds
        return seconds.map { .seconds(100) + .milliseconds(Int64(($0 * 1000).rounded(.up))) }
            ?? max(configuration.captureTimeout, .seconds(100))
    }

    /// The error for a call whose session ended under it: the error that ended the session, saying the camera went
    /// away, rather than the session's ``ViewfinderError/Code/notConnected`` for calls after its end.
    func lostSessionError(_ error: ViewfinderError, while activity: String) -> ViewfinderError {
        guard error.code == .notConnected, case .closed(let reason?) = session.state, let camera else { return error }
        return camera.lostCameraError(reason, while: activity)
    }

    private func isCurrent(_ camera: PTPCamera) -> Bool {
        camera.currentLink(generation) != nil || camera.isOpening(generation)
    }
}
