/// What the Fuji dialect asks of a transport that carries Fujifilm's WiFi protocol: the event and live view
/// connections, which the camera opens only once remote capture has started.
///
/// `ViewfinderPTPIP`'s `FujiWiFiTransport` conforms; the dialect finds it as its session's transport, and over USB,
/// where the transport does not conform, it uses Fujifilm's USB operations instead.
public protocol FujiWiFiChannels: PTPTransport {
    /// Opens the event connection; its events go to the session from then on.
    func openEvents() async throws
    /// Opens the live view connection.
    func openLiveView() async throws
    /// The newest live view frame, a JPEG.
    func liveViewFrame() async throws -> [UInt8]
    /// The thread where ``liveViewFrame()`` reads frames, for the live view publisher's task to run on.
    var liveViewExecutor: (any TaskExecutor)? { get }
}
