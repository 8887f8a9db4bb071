import ViewfinderCore

/// What a ``PTPDialect`` works with for one connection: the session, and the camera's typed properties, new-file
/// observers and recording state to report to.
///
/// The reports go through the connection's `CameraDriverContext`, which holds the camera weakly: a dialect keeps the
/// connection, and calls on it do nothing once the camera is gone or has connected again.
public final class PTPConnection: Sendable {
    /// The session of this connection.
    public let session: PTPSession
    /// How the camera was configured: timeouts for captures, live view and property sets.
    public let configuration: PTPCamera.Configuration
    private let context: CameraDriverContext

    init(session: PTPSession, configuration: PTPCamera.Configuration, context: CameraDriverContext) {
        self.session = session
        self.configuration = configuration
        self.context = context
    }

    /// What the camera said about itself when the session opened.
    public var deviceInfo: PTPDeviceInfo { session.deviceInfo }

    /// The camera's model name, for messages.
    public var model: String { session.deviceInfo.model }

    /// Passes a property's value and valid settable values to the camera's typed property.
    public func update<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, currentValue: TypedCameraPropertyValue<Value>?,
        validSettableValues: CameraPropertySettableValues<Value>
    ) {
        context.update(identifier, currentValue: currentValue, validSettableValues: validSettableValues)
    }

    /// Records where the camera's autofocus points are, as it says.
    public func reportFocusInfo(_ info: FocusInfo?) {
        context.reportFocusInfo(info)
    }

    /// Tells the camera's new-file observers of a file the camera added, reading its information first.
    public func reportNewObject(_ handle: UInt32) async {
        guard context.wantsNewFiles, deviceInfo.supports(.getObjectInfo),
            let info = try? await session.objectInfo(handle)
        else { return }
        reportNewFile(CameraFileItem(handle: handle, info: info))
    }

    /// Tells the camera's new-file observers of a file the camera added.
    public func reportNewFile(_ item: CameraFileItem) {
        context.reportNewFile(item)
    }

    /// Tells the camera's new-file observers and transfer handlers of a picture the camera holds in its memory for
    /// the computer to read.
    public func reportTransferRequest(_ item: CameraFileItem) {
        context.reportTransferRequest(item)
    }

    /// Records that the camera records video, unless that is known already, and starts the timer's ticks.
    public func recordingStarted() {
        context.recordingStarted()
    }

    /// Records that the camera stopped recording video.
    public func recordingStopped() {
        context.recordingStopped()
    }

    /// How long a capture's request may wait for the camera: the exposure time the camera shows plus 100 s, as a
    /// camera may answer only after a long exposure and the writing of the file; the capture timeout for a bulb or
    /// unknown exposure.
    public var captureRequestTimeout: Duration {
        let seconds = context.property(for: .shutterSpeed)?.commonValue?.approximateSeconds
        return seconds.map { .seconds(100) + .milliseconds(Int64(($0 * 1000).rounded(.up))) }
            ?? max(configuration.captureTimeout, .seconds(100))
    }

    /// The error for a call whose session ended under it: the error that ended the session, saying the camera went
    /// away, rather than the session's `ViewfinderError/Code/notConnected` for calls after its end.
    public func lostSessionError(_ error: ViewfinderError, while activity: String) -> ViewfinderError {
        guard error.code == .notConnected, case .closed(let reason?) = session.state,
            let lost = context.lostCameraError(reason, while: activity)
        else { return error }
        return lost
    }
}
