import ViewfinderCore
import ViewfinderDiscovery
import ViewfinderHTTPMessage
import ViewfinderImaging
import ViewfinderSystem

/// A simulated Panasonic Lumix on WiFi: `cam.cgi` commands on one port, the UPnP content directory and its files on
/// another, and live view as JPEG datagrams, well enough that gphoto2's lumix driver and `ViewfinderLumix` accept
/// it.
///
/// It answers as the TZ90 whose answers libgphoto2 recorded: remote access, capabilities, lens, menus, state,
/// settings (ISO, aperture, shutter speed, exposure compensation, white balance, focus and drive mode), the shutter
/// (each capture adds a JPEG of the test scene to the card), recording and playback modes, the content count, a
/// DIDL-Lite listing of the card and the pictures themselves.
///
/// ```swift
/// let simulator = LumixSimulator(configuration: .init(port: 0, contentPort: 0))
/// let (port, _) = try simulator.start()
/// let camera = LumixCamera(host: "127.0.0.1", configuration: …port…)
/// ```
public final class LumixSimulator: Sendable {
    /// Where the simulator listens and what it logs.
    public struct Configuration: Sendable {
        /// The address to listen on.
        public var bindAddress: String
        /// The port of `cam.cgi`; 80 as on real bodies, 0 for a free one.
        public var port: UInt16
        /// The port of the content directory, the files and (unless ``descriptionPort`` names another) the device
        /// description; 60606 as on real bodies, 0 for a free one.
        public var contentPort: UInt16
        /// The port of a server of its own for the device description, which then names the content directory by
        /// its whole URL; `nil` (the default) serves the description on ``contentPort`` as real bodies do.
        public var descriptionPort: UInt16?
        /// How many pictures are on the card at start.
        public var sampleImageCount: Int
        /// Whether the camera announces itself over SSDP as a Lumix does (a media server whose description is at
        /// `/Lumix/Server0/ddd` on its description's port); it needs a bind address on a network interface.
        public var announces = false
        /// Where log lines go.
        public var log: @Sendable (String) -> Void

        /// A configuration.
        public init(
            bindAddress: String = "127.0.0.1", port: UInt16 = 80, contentPort: UInt16 = 60606,
            sampleImageCount: Int = 2, log: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.bindAddress = bindAddress
            self.port = port
            self.contentPort = contentPort
            self.sampleImageCount = sampleImageCount
            self.log = log
        }
    }

    struct State {
        var settings: [String: String] = [
            "iso": "auto", "focal": "1366/256", "shtrspeed": "2560/256", "exposure": "0", "whitebalance": "auto",
            "focusmode": "af", "drivemode": "normal", "quality": "fine", "device_name": "",
        ]
        var mode = "rec"
        var recording = false
        /// The pictures on the card, oldest first: their object id and JPEG.
        var pictures: [(id: Int, jpeg: [UInt8])] = []
        var nextPictureID = 1_000_001
        /// Where live view goes, while it runs, and when it stops unless asked for again.
        var stream: (address: SocketAddress, until: ContinuousClock.Instant)?
        var servers: [SimulatedHTTPServer] = []
        /// The ports the content directory and the description listen on, once started.
        var contentPort: UInt16?
        var descriptionPort: UInt16?
        var streamThread: PlatformThread?
        var announcer: SSDPAnnouncer?
        var stopping = false
    }

    /// Where the simulator listens and what it logs.
    public let configuration: Configuration
    let state = Locked(State())
    let encoder = JPEGEncoder()

    /// A simulator; nothing listens until ``start()``.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Starts listening, returning the ports of `cam.cgi` and of the content directory.
    ///
    /// - Throws: A `ViewfinderError` when a port cannot be bound (ports below 1024 need root).
    @discardableResult
    public func start() throws -> (port: UInt16, contentPort: UInt16) {
        for _ in 0..<configuration.sampleImageCount {
            try addPicture()
        }
        do {
            // Known: Panasonic's UPnP server (port 60606) answers CONNECTION: close to each request (a BGH1's, in a
            // public curl trace). Nothing published tells of cam.cgi's server on port 80; assumed: it keeps a
            // connection between requests, as HTTP/1.1 lets, and drops it after half a minute idle or when another
            // client connects.
            let control = try serve(
                port: configuration.port, name: "lumix-cgi", kept: .keptAlive(idleTimeout: .seconds(30))
            ) { self.answerCommand($0) }
            let content = try serve(port: configuration.contentPort, name: "lumix-cds", kept: .closedAfterEachAnswer) {
                self.answerContent($0)
            }
            state.withLock { $0.contentPort = content }
            var description = content
            if let descriptionPort = configuration.descriptionPort {
                description = try serve(port: descriptionPort, name: "lumix-ddd", kept: .closedAfterEachAnswer) {
                    self.answerDescriptionServer($0)
                }
            }
            state.withLock { $0.descriptionPort = description }
            let streamer = try PlatformThread(name: "lumix-stream") { self.streamLiveView() }
            state.withLock { $0.streamThread = streamer }
            if configuration.announces {
                let announcer = try SSDPAnnouncer(
                    .init(
                        udn: Self.udn, types: [SSDPSearcher.mediaServer],
                        manufacturer: "Panasonic", modelName: Self.model, friendlyName: Self.model, serialNumber: "",
                        address: configuration.bindAddress,
                        servedLocation: "http://\(configuration.bindAddress):\(description)"
                            + SSDPSearcher.lumixDescriptionPath))
                state.withLock { $0.announcer = announcer }
                configuration.log("announcing over SSDP at \(announcer.location)")
            }
            configuration.log(
                "listening on \(configuration.bindAddress):\(control) (cam.cgi) and :\(content) (content directory) "
                    + (description != content ? "and :\(description) (device description) " : "") + "as a Lumix")
            return (control, content)
        } catch {
            // What started stops again: a simulator that failed to start holds no port.
            stop()
            throw error
        }
    }

    /// Stops listening and streaming.
    public func stop() {
        let (servers, streamer, announcer) = state.withLock { state in
            state.stopping = true
            defer {
                state.servers = []
                state.announcer = nil
            }
            return (state.servers, state.streamThread, state.announcer)
        }
        announcer?.stop()
        for server in servers {
            server.stop()
        }
        streamer?.join()
    }

    /// Listens on `port` and answers each request with `answer`, with the `Server` field a Lumix sends, keeping
    /// connections as `kept` says, returning the port.
    private func serve(
        port: UInt16, name: String, kept: SimulatedHTTPConnections,
        _ answer: @escaping @Sendable (SimulatedHTTPRequest) -> SimulatedHTTPAnswer
    ) throws -> UInt16 {
        let server = try SimulatedHTTPServer(
            host: configuration.bindAddress, port: port, name: name, fields: [.init("Server", "Panasonic")],
            kept: kept, answer)
        state.withLock { $0.servers.append(server) }
        return server.port
    }

    /// Adds a picture of the test scene to the card.
    func addPicture() throws {
        let picture = try TestScene.render(width: 640, height: 480, lighting: .init(), time: 0)
        let jpeg = try encoder.encode(picture, quality: 85)
        state.withLock { state in
            state.pictures.append((state.nextPictureID, jpeg))
            state.nextPictureID += 1
        }
    }
}
