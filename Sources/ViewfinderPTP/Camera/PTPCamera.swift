import ViewfinderCore
import ViewfinderJPEG

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
/// ## The driver
///
/// The lifecycle (connection states, teardown, the property store, live view, the recording timer, observers) is
/// the ``driverCore``'s, the same for every driver; a ``PTPDriverConnection`` is what PTP adds to it.
///
/// ## Threads
///
/// Every member may be called from any thread. Observers are called outside the camera's locks, on the thread that
/// saw the change; no run loop is needed.
public final class PTPCamera: DriverBackedCamera, CameraFileAccess {
    /// Where the camera is and how it is reached.
    public let endpoint: any PTPEndpoint
    /// How long the camera waits for things, and how it delivers live view.
    public let configuration: Configuration
    /// The lifecycle every camera shares, around the PTP connection it opens.
    public let driverCore: CameraDriverCore<PTPDriverConnection>

    /// Creates a camera at `endpoint`; nothing happens until ``connect()``.
    ///
    /// - Parameters:
    ///   - endpoint: Where the camera is, such as a `PTPIPEndpoint` for a camera on the network.
    ///   - configuration: The timeouts and live view settings.
    public init(endpoint: any PTPEndpoint, configuration: Configuration = Configuration()) {
        self.endpoint = endpoint
        self.configuration = configuration
        driverCore = CameraDriverCore(
            location: "\(endpoint)",
            configuration: .init(
                propertySetTimeout: configuration.propertySetTimeout, liveView: configuration.liveView,
                liveViewDecoder: JPEGLiveViewDecoder(pixelFormat: configuration.liveViewPixelFormat))
        ) { context in
            try await PTPDriverConnection.open(endpoint, configuration: configuration, context: context)
        }
    }

    /// The camera's device information as PTP reports it; `nil` until connected.
    public var ptpDeviceInfo: PTPDeviceInfo? {
        driverCore.currentConnection?.ptpDeviceInfo
    }

    /// The name of the dialect that speaks to the camera, such as `standard PTP`; `nil` until connected.
    public var dialectName: String? {
        driverCore.currentConnection.map { type(of: $0.dialect).name }
    }
}
