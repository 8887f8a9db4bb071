import ViewfinderCore
import ViewfinderJPEG

/// An older Sony body (α5000, α6000, α7 II, RX100 III, the QX lens cameras) driven over WiFi through Sony's Camera
/// Remote API: JSON-RPC calls over HTTP, changes heard through the `getEvent` long poll.
///
/// The camera is a `Camera` like any other: connect, read and set its properties, take pictures and watch live
/// view. Connecting reads the camera's device description for the URL of its `camera` service, switches it to
/// shooting with `startRecMode` where it lists that call, and waits until it lists the shooting calls; while
/// connected, a `getEvent` long poll hears of every change, which reaches the properties' observers and publishers.
/// Each picture's postview is offered to the new-file observers and downloaded from the camera, streamed.
///
/// ```swift
/// let camera = SonyRemoteCamera(host: "192.168.122.1")
/// try await camera.connect()
/// try await camera.property(for: .iso).setValue(.iso400)
/// try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
/// ```
public final class SonyRemoteCamera: DriverBackedCamera {
    /// Where the camera describes itself and how long it may take to answer.
    public struct Configuration: Sendable {
        /// The port of the camera's device description; 64321 on real bodies.
        public var port: UInt16 = 64321
        /// The paths the device description is asked at, in order: bodies serve `/dd.xml` or `/DmsRmtDesc.xml`.
        public var descriptionPaths = ["/dd.xml", "/DmsRmtDesc.xml"]
        /// The longest one call may take, from connecting to the whole answer.
        public var requestTimeout = Duration.seconds(10)
        /// The longest a `getEvent` long poll may wait for the camera's answer before the camera counts as gone.
        public var longPollTimeout = Duration.seconds(60)
        /// The longest the camera may take to list the shooting calls after `startRecMode`.
        public var recModeTimeout = Duration.seconds(10)
        /// The longest answer body read, but for pictures.
        public var maximumAnswerLength = 1 << 20
        /// The longest live view waits for the camera's next whole frame.
        public var liveViewTimeout = Duration.seconds(5)
        /// The longest live view frame or thumbnail read.
        public var maximumFrameLength = 4 << 20
        /// The longest the camera may take to switch between shooting and serving its card.
        public var cameraFunctionTimeout = Duration.seconds(10)
        /// The most stills listed from one card, whatever count the camera gives.
        public var maximumContentCount = 10_000

        /// The configuration for real bodies: the description on port 64321, ten seconds per call.
        public init() {}
    }

    /// The core that keeps the camera's connection, properties and live view state.
    public let driverCore: CameraDriverCore<SonyRemoteConnection>
    /// The camera's host name or address.
    public let host: String
    /// Where the camera describes itself and how long it may take to answer.
    public let configuration: Configuration

    /// A camera at `host`; nothing happens until ``connect()``.
    ///
    /// - Parameters:
    ///   - host: The camera's host name or address, such as `192.168.122.1` on the camera's own network.
    ///   - configuration: Where the camera describes itself and how long it may take to answer.
    public init(host: String, configuration: Configuration = Configuration()) {
        self.host = host
        self.configuration = configuration
        driverCore = CameraDriverCore(
            location: host, configuration: .init(liveViewDecoder: JPEGLiveViewDecoder())
        ) { context in
            try await SonyRemoteConnection.open(host: host, configuration: configuration, context: context)
        }
    }
}
