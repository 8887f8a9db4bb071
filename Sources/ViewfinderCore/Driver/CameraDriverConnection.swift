/// One connection a camera driver opened: what ``CameraDriverCore`` asks of the driver while the camera is connected.
///
/// A driver speaks one protocol (PTP over a transport, a maker's HTTP API) and opens a connection of its own type
/// for each ``Camera/connect()``; the core keeps everything else (connection states and generations, teardown, the
/// property store and its reset, live view, the recording timer, observers). The connection only talks to the
/// camera, and reports what the camera tells it through the ``CameraDriverContext`` it was opened with.
///
/// ```swift
/// final class LumixConnection: CameraDriverConnection {
///     let client: LumixClient
///     let context: CameraDriverContext
///
///     var deviceInfo: CameraDeviceInfo { client.deviceInfo }
///     var functionality: CameraFunctionality { [.stillCapture, .liveView, .propertyControl] }
///     var driverDescription: String { "over Panasonic's HTTP API" }
///     var endingError: ViewfinderError? { client.endingError }
///
///     func run() async -> ViewfinderError? {
///         // Poll the camera's state until the connection ends, reporting changes through `context`.
///         await client.pollState { iso in context.update(.iso, currentValue: iso, validSettableValues: …) }
///     }
///
///     func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
///         try await client.get("cam.cgi?mode=setsetting&type=\(name)&value=\(rawValue)")
///     }
///
///     func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {
///         try await client.get("cam.cgi?mode=camcmd&value=capture")
///     }
///
///     func close() async { await client.close() }
///     func connectionEnded(with error: ViewfinderError) { client.fail(with: error) }
/// }
/// ```
///
/// The operations (``CameraDriverOperations``) have defaults for the half press, the held shutter, focus drive, live
/// view, video recording and property steps that throw ``ViewfinderError/Code/notAvailable``; a connection implements
/// those its camera offers, and says so in ``functionality``.
public protocol CameraDriverConnection: CameraDriverOperations {
    /// Who made the camera and which model and unit it is.
    var deviceInfo: CameraDeviceInfo { get }

    /// What the camera can do through this connection.
    var functionality: CameraFunctionality { get }

    /// How the driver speaks to the camera, for messages that say what it cannot do, such as
    /// `over PTP that Viewfinder speaks (Nikon dialect)`.
    var driverDescription: String { get }

    /// The error that ended the connection once the camera went away; `nil` while it is open, or after it closed on
    /// request.
    ///
    /// The core turns a call's ``ViewfinderError/Code/notConnected``, thrown because the connection ended under it,
    /// into this error.
    var endingError: ViewfinderError? { get }

    /// Follows the camera until the connection ends, and returns the error that ended it.
    ///
    /// The core calls it once, after the connection opened, from a task of its own: events the camera sends, or
    /// polls of its state, are read here and reported through the ``CameraDriverContext``. It returns `nil` when the
    /// connection was closed, and the error when the camera closed it or stopped answering.
    func run() async -> ViewfinderError?

    /// The executor live view runs on, such as the thread the connection's I/O runs on; `nil` for Swift's global
    /// executor. See ``LiveViewBackend/preferredExecutor``.
    var liveViewExecutor: (any TaskExecutor)? { get }

    /// Closes the connection and releases its threads and sockets; ``run()`` then returns. Closing twice is harmless.
    func close() async

    /// The connection ended: waits under way fail with `error`, and tasks the connection runs stop. It must not
    /// block.
    func connectionEnded(with error: ViewfinderError)
}

extension CameraDriverConnection {
    /// No preference: Swift's global executor.
    public var liveViewExecutor: (any TaskExecutor)? { nil }
}
