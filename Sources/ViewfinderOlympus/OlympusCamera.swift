import ViewfinderCore
import ViewfinderJPEG

/// An Olympus or OM System camera driven over WiFi through its HTTP API (the CGI commands OI.Share sends).
///
/// The camera is a `Camera` like any other: connect, read and set its properties, take pictures, watch live view and
/// read its card.
/// Connecting checks the camera's connect mode, reads its command list and switches it to recording mode; while
/// connected, its property descriptions are polled for changes, which reach the properties' observers and
/// publishers. The camera serves one thing at a time (recording, shutter or playback): the driver switches it for
/// each operation and back to recording.
///
/// ```swift
/// let camera = OlympusCamera(host: OlympusCamera.accessPointAddress)
/// try await camera.connect()
/// try await camera.property(for: .iso).setValue(.iso400)
/// try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
/// ```
public final class OlympusCamera: DriverBackedCamera {
    /// The address of a camera on its own WiFi network, where Olympus and OM System bodies always are.
    public static let accessPointAddress = "192.168.0.10"

    /// Where the camera listens, how often it is polled and how long it may take to answer.
    public struct Configuration: Sendable {
        /// The port of the camera's commands; 80 on real bodies.
        public var port: UInt16 = 80
        /// How often the camera's properties are read for changes.
        public var pollInterval = Duration.seconds(1)
        /// The longest one command may take, from connecting to the whole answer.
        public var requestTimeout = Duration.seconds(5)
        /// The longest answer body read, but for downloads; a card's folder listing is the longest.
        public var maximumAnswerLength = 4 << 20
        /// The longest live view waits for the camera's next whole frame.
        public var liveViewTimeout = Duration.seconds(2)
        /// The UDP port live view arrives on; 0 for a free one.
        public var liveViewPort: UInt16 = 0
        /// The longest live view frame read.
        public var maximumFrameLength = 2 << 20

        /// The configuration for real bodies: port 80, a poll each second, five seconds per command.
        public init() {}
    }

    /// The core that keeps the camera's connection, properties and live view state.
    public let driverCore: CameraDriverCore<OlympusConnection>
    /// The camera's host name or address.
    public let host: String
    /// Where the camera listens, how often it is polled and how long it may take to answer.
    public let configuration: Configuration

    /// A camera at `host`; nothing happens until ``connect()``.
    ///
    /// - Parameters:
    ///   - host: The camera's host name or address, ``accessPointAddress`` when joined to the camera's own network.
    ///   - configuration: Where the camera listens, how often it is polled and how long it may take to answer.
    public init(host: String = OlympusCamera.accessPointAddress, configuration: Configuration = Configuration()) {
        self.host = host
        self.configuration = configuration
        driverCore = CameraDriverCore(
            location: host, configuration: .init(liveViewDecoder: JPEGLiveViewDecoder())
        ) { context in
            try await OlympusConnection.open(host: host, configuration: configuration, context: context)
        }
    }
}
