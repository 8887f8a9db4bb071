import ViewfinderCore
import ViewfinderDiscovery
import ViewfinderImaging
import ViewfinderSystem

/// A simulated older Sony body on WiFi speaking the Camera Remote API: JSON-RPC calls over HTTP and live view as an
/// HTTP stream, well enough that the independent client `libsonyapi` reads its description, switches it to shooting
/// and reads and sets its settings, and a client takes pictures and reads live view.
///
/// It answers as an α6000 (ILCE-6000): the device description at `/dd.xml` (or another path) naming the `camera`, `system` and
/// `avContent` services at `/sony`; `getAvailableApiList`, which lists the shooting calls only after `startRecMode`,
/// as the α bodies do (a shooting call before it answers error 1), `actTakePicture` only in the `still` shoot mode
/// and `startMovieRec`/`stopMovieRec` only in `movie`; `getEvent`, at once or as a long poll bounded by
/// ``Configuration/eventTimeout``; `actTakePicture`, each picture a JPEG of the test scene at its postview URL;
/// get, set, getAvailable and getSupported for ISO, aperture, shutter speed, exposure compensation, white
/// balance, exposure mode, focus mode, shoot mode and camera function; the half press and touch AF; `startLiveview`,
/// whose stream of test scene frames is served on a port of its own; and `setCameraFunction`, which switches to
/// `Contents Transfer` after ``Configuration/functionSwitchTime``, where the `avContent` service lists the stills on
/// the card (``Configuration/picturesOnCard`` of them, then the pictures taken) in pages of at most 100, with their
/// originals and thumbnails, and the camera lists no shooting call.
///
/// ```swift
/// let simulator = try SonyRemoteSimulator(configuration: .init(port: 0))
/// let port = try simulator.start()  // the description is at http://127.0.0.1:port/dd.xml
/// ```
public final class SonyRemoteSimulator: Sendable {
    /// Where the simulator listens, how long a long poll waits and what it logs.
    public struct Configuration: Sendable {
        /// The address to listen on, and the host of the URLs the description and answers give.
        public var bindAddress: String
        /// The port of the description and the calls; 8080 as on real bodies, 0 for a free one.
        public var port: UInt16
        /// The port of the live view stream; 0 for a free one.
        public var liveViewPort: UInt16
        /// How long a `getEvent` long poll waits for a change before it answers the state as it is.
        public var eventTimeout: Duration
        /// Calls the camera neither lists nor answers (error 12), to play a body without them, such as
        /// `actHalfPressShutter`.
        public var omittedMethods: Set<String> = []
        /// How many stills the card holds at start, `DSC00001.JPG` on; the pictures taken join them.
        public var picturesOnCard = 3
        /// The count `getContentCount` gives instead of the stills on the card, to play a camera that claims more
        /// than it lists.
        public var contentCount: Int?
        /// How many entries past those asked for a `getContentList` page holds, where the card has them, to play a
        /// camera that answers longer pages than asked for.
        public var contentPageExcess = 0
        /// How long the camera takes to switch between shooting and serving its card.
        public var functionSwitchTime = Duration.milliseconds(200)
        /// How long a `getEvent` long poll's answer waits, once made, before it is sent, to play a camera (or a
        /// network) whose answers arrive late: after those of calls made since on another connection.
        public var longPollAnswerDelay = Duration.zero
        /// Whether the camera announces itself over SSDP as the ScalarWebAPI service, its description (at
        /// ``descriptionPath`` on a port of its own) naming the services' action list URL; it needs a bind address on
        /// a network interface.
        public var announces = false
        /// The path of the device description: `/dd.xml` as on most bodies, or another, to play a body that serves
        /// it elsewhere (`/DmsRmtDesc.xml` on some) and that clients find through its SSDP LOCATION.
        public var descriptionPath = "/dd.xml"
        /// Where log lines go.
        public var log: @Sendable (String) -> Void

        /// A configuration.
        public init(
            bindAddress: String = "127.0.0.1", port: UInt16 = 8080, liveViewPort: UInt16 = 0,
            eventTimeout: Duration = .seconds(1), log: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.bindAddress = bindAddress
            self.port = port
            self.liveViewPort = liveViewPort
            self.eventTimeout = eventTimeout
            self.log = log
        }
    }

    struct State {
        /// Whether `startRecMode` has switched the camera to shooting.
        var recording = false
        /// The settings' values by the name in their methods, such as `IsoSpeedRate` → `AUTO`.
        var values: [String: String] = Dictionary(uniqueKeysWithValues: settings.map { ($0.name, $0.value) })
        /// The exposure compensation in steps of a third.
        var exposureCompensation = 0
        /// The postview JPEGs by name, and the URL of the last picture taken.
        var pictures: [String: [UInt8]] = [:]
        var lastPicture: String?
        /// A still on the card (all those there at start are the same picture), and the thumbnail of every still.
        var cardPicture: [UInt8]?
        var thumbnail: [UInt8]?
        /// Whether a movie is being recorded.
        var movieRecording = false
        /// What the half press or touch AF did, for `focusStatus`; `nil` before either.
        var focusStatus: String?
        /// Where touch AF focuses, in percent of the picture's width and height; `nil` when not set.
        var touchPosition: (x: Double, y: Double)?
        /// The camera function being switched to and when the switch completes.
        var functionSwitch: (target: String, due: ContinuousClock.Instant)?
        /// The result of the last switch of the camera function.
        var functionResult: String?
        /// Whether something changed since the last `getEvent` answered.
        var changed = true
        /// How many `getEvent` long polls wait for a change.
        var pollsWaiting = 0
        var liveView = false
        var server: SimulatedHTTPServer?
        var liveViewServer: SimulatedHTTPServer?
        var announcer: SSDPAnnouncer?
        var stopping = false
    }

    /// Where the simulator listens, how long a long poll waits and what it logs.
    public let configuration: Configuration
    let state = Locked(State())
    let encoder = JPEGEncoder()

    /// A simulator; nothing listens until ``start()``.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Starts listening, returning the port of the description and the calls.
    ///
    /// - Throws: A `ViewfinderError` when a port cannot be bound (ports below 1024 need root).
    @discardableResult
    public func start() throws -> UInt16 {
        // Calls side by side, as a client keeps a getEvent long poll open while it sets values. Nothing published
        // tells whether a body keeps a connection between calls; assumed: its HTTP/1.1 server keeps it, as HTTP/1.1
        // lets, and drops it after half a minute idle or when another client connects while every connection is
        // taken.
        let server = try SimulatedHTTPServer(
            host: configuration.bindAddress, port: configuration.port, name: "sony", connections: 4,
            kept: .keptAlive(idleTimeout: .seconds(30))
        ) { self.answer($0) }
        state.withLock { $0.server = server }
        do {
            let liveViewServer = try SimulatedHTTPServer(
                host: configuration.bindAddress, port: configuration.liveViewPort, name: "sony-liveview"
            ) { self.liveViewAnswer($0) }
            state.withLock { $0.liveViewServer = liveViewServer }
            if configuration.announces {
                let announcer = try SSDPAnnouncer(
                    .init(
                        udn: Self.udn, types: [Self.serviceType], manufacturer: "Sony Corporation",
                        modelName: "SonyImagingDevice", friendlyName: Self.model, serialNumber: "",
                        address: configuration.bindAddress, vendorElements: deviceInfo(port: server.port),
                        descriptionPath: configuration.descriptionPath))
                state.withLock { $0.announcer = announcer }
                configuration.log("announcing over SSDP at \(announcer.location)")
            }
        } catch {
            stop()
            throw error
        }
        configuration.log("listening on \(configuration.bindAddress):\(server.port) as a Sony \(Self.model)")
        return server.port
    }

    /// Stops listening and streaming.
    public func stop() {
        let (servers, announcer) = state.withLock { state in
            state.stopping = true
            defer {
                state.server = nil
                state.liveViewServer = nil
                state.announcer = nil
            }
            return ([state.server, state.liveViewServer], state.announcer)
        }
        announcer?.stop()
        for server in servers {
            server?.stop()
        }
    }

    /// How many `getEvent` long polls wait for a change, for tests that make the change once a poll waits.
    package var longPollsWaiting: Int { state.withLock { $0.pollsWaiting } }

    /// The base of the URLs the camera gives, `http://host:port`, for the service at `port`.
    func baseURL(port: UInt16?) -> String {
        "http://\(configuration.bindAddress):\(port ?? 0)"
    }
}
