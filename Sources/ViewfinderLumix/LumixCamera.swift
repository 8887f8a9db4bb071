import ViewfinderCore
import ViewfinderJPEG

/// A Panasonic Lumix driven over WiFi through its HTTP API (`cam.cgi`), as Panasonic's Image App does.
///
/// The camera is a `Camera` like any other: connect, read and set its properties, take pictures, watch live view
/// and record video.
/// Connecting asks the camera for remote access (the camera may ask its owner to allow it on its screen), reads its
/// capabilities and menus and switches it to recording mode; while connected, the camera's state, settings and menus
/// are polled for changes, which reach the properties' observers and publishers.
///
/// ```swift
/// let camera = LumixCamera(host: "192.168.54.1")
/// try await camera.connect()
/// try await camera.property(for: .iso).setValue(.iso400)
/// try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
/// ```
///
/// Bodies that need Panasonic's newer login (a challenge answered with keys, from the G9 II on) refuse the older
/// access request this driver sends; connecting to one fails with `ViewfinderError/Code/pairingRequired` saying so.
public final class LumixCamera: DriverBackedCamera {
    /// Where the camera listens, how often it is polled and how long it may take to answer.
    public struct Configuration: Sendable {
        /// The port of the camera's `cam.cgi`; 80 on real bodies.
        public var port: UInt16 = 80
        /// The port of the camera's UPnP server, which serves its device description and, unless the description
        /// names another place, its content directory, which lists its card; 60606 on real bodies.
        public var contentPort: UInt16 = 60606
        /// Where on ``contentPort`` the camera serves its device description, which names its content directory's
        /// control URL; `/Lumix/Server0/ddd` on real bodies, or the path its SSDP announcement gives.
        public var descriptionPath = "/Lumix/Server0/ddd"
        /// How often the camera's state and settings are read for changes.
        public var pollInterval = Duration.seconds(1)
        /// The longest one command may take, from connecting to the whole answer.
        public var requestTimeout = Duration.seconds(5)
        /// The longest live view waits for the camera's next frame.
        public var liveViewTimeout = Duration.seconds(2)
        /// The longest answer body read; the menu list of a TZ90 is about 400 KB.
        public var maximumAnswerLength = 4 << 20
        /// The name the camera shows for this computer when it asks its owner to allow remote access.
        public var deviceName = "Viewfinder"

        /// The configuration for real bodies: port 80, a poll each second, five seconds per command.
        public init() {}
    }

    /// The core that keeps the camera's connection, properties, live view and recording state.
    public let driverCore: CameraDriverCore<LumixConnection>
    /// The camera's host name or address.
    public let host: String
    /// Where the camera listens, how often it is polled and how long it may take to answer.
    public let configuration: Configuration

    /// A camera at `host`; nothing happens until ``connect()``.
    ///
    /// - Parameters:
    ///   - host: The camera's host name or address, such as `192.168.54.1` when joined to the camera's own network.
    ///   - configuration: Where the camera listens, how often it is polled and how long it may take to answer.
    public init(host: String, configuration: Configuration = Configuration()) {
        self.host = host
        self.configuration = configuration
        driverCore = CameraDriverCore(
            location: host, configuration: .init(liveViewDecoder: JPEGLiveViewDecoder())
        ) { context in
            try await LumixConnection.open(host: host, configuration: configuration, context: context)
        }
    }
}
