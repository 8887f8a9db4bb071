import ViewfinderCore
import ViewfinderImaging
import ViewfinderSystem

/// A simulated Olympus or OM System camera on WiFi: the OI.Share CGI commands on one port, well enough that the
/// independent client `olympuswifi` connects, reads and sets properties, takes pictures and lists and downloads the
/// card's files.
///
/// It answers as an E-M10 Mark II: the command list, connect mode and camera info, the playback, recording and
/// shutter modes (commands in the wrong mode answer HTTP 520 with error code 1001, as the camera does), the property
/// descriptions and values (shooting mode, ISO, shutter speed, aperture, exposure compensation, white balance,
/// drive mode), the shutter in shutter mode (each press adds a JPEG of the test scene to the card), autofocus
/// (`exec_takemotion` `takeready`) and video recording in movie mode (`starttake`, `stoptake`), the card's
/// listing and the pictures and their thumbnails, and live view: JPEG frames of the test scene in RTP packets over
/// UDP to the port `exec_takemisc.cgi?com=startliveview` names, while the camera is in recording mode.
///
/// ```swift
/// let simulator = OlympusSimulator(configuration: .init(port: 0))
/// let port = try simulator.start()
/// ```
public final class OlympusSimulator: Sendable {
    /// Where the simulator listens and what it logs.
    public struct Configuration: Sendable {
        /// The address to listen on; clients look for a camera at 192.168.0.10.
        public var bindAddress: String
        /// The port of the commands; 80 as on real bodies, 0 for a free one.
        public var port: UInt16
        /// How many pictures are on the card at start.
        public var sampleImageCount: Int
        /// Where log lines go.
        public var log: @Sendable (String) -> Void

        /// A configuration.
        public init(
            bindAddress: String = "127.0.0.1", port: UInt16 = 80, sampleImageCount: Int = 2,
            log: @escaping @Sendable (String) -> Void = { _ in }
        ) {
            self.bindAddress = bindAddress
            self.port = port
            self.sampleImageCount = sampleImageCount
            self.log = log
        }
    }

    struct State {
        /// The property values by name.
        var values: [String: String] = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.value) })
        /// `play`, `rec` or `shutter`.
        var mode = "play"
        /// The pictures on the card, oldest first: their file name (in `folder`) and JPEG.
        var pictures: [(name: String, jpeg: [UInt8])] = []
        var nextPictureNumber = 1
        /// Whether the camera records video, between `starttake` in movie mode and `stoptake`.
        var isRecording = false
        var server: SimulatedHTTPServer?
        /// Where live view goes, once a client started it.
        var liveView: SocketAddress?
        var streamThread: PlatformThread?
        var stopping = false
    }

    /// Where the simulator listens and what it logs.
    public let configuration: Configuration
    let state = Locked(State())
    let encoder = JPEGEncoder()
    /// The thumbnail every picture has.
    let thumbnail: [UInt8]

    /// A simulator; nothing listens until ``start()``.
    ///
    /// - Throws: A `ViewfinderError` when the thumbnail cannot be rendered.
    public init(configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        thumbnail = try encoder.encode(
            TestScene.render(width: 160, height: 120, lighting: .init(), time: 0), quality: 80)
    }

    /// Starts listening, returning the port of the commands.
    ///
    /// - Throws: A `ViewfinderError` when the port cannot be bound (ports below 1024 need root).
    @discardableResult
    public func start() throws -> UInt16 {
        for _ in 0..<configuration.sampleImageCount {
            try addPicture()
        }
        // Nothing published tells whether an Olympus keeps a connection between requests (olympuswifi opens one per
        // request); assumed: its HTTP/1.1 server keeps it, as HTTP/1.1 lets, and drops it after half a minute idle or
        // when another client connects, as servers with one connection at a time do.
        let server = try SimulatedHTTPServer(
            host: configuration.bindAddress, port: configuration.port, name: "olympus",
            kept: .keptAlive(idleTimeout: .seconds(30))
        ) { self.answer($0) }
        state.withLock { $0.server = server }
        do {
            let streamer = try PlatformThread(name: "olympus-stream") { self.streamLiveView() }
            state.withLock { $0.streamThread = streamer }
        } catch {
            stop()
            throw ViewfinderError(.io, "cannot start the simulated Olympus's live view thread: \(error)")
        }
        configuration.log("listening on \(configuration.bindAddress):\(server.port) as an Olympus \(Self.model)")
        return server.port
    }

    /// Stops listening and streaming.
    public func stop() {
        let (server, streamer) = state.withLock { state in
            state.stopping = true
            defer {
                state.server = nil
                state.streamThread = nil
            }
            return (state.server, state.streamThread)
        }
        server?.stop()
        streamer?.join()
    }

    /// Adds a picture of the test scene to the card.
    func addPicture() throws {
        let picture = try TestScene.render(width: 640, height: 480, lighting: .init(), time: 0)
        let jpeg = try encoder.encode(picture, quality: 85)
        let name = state.withLock { state in
            let number = String(state.nextPictureNumber)
            let name = "PC06" + String(repeating: "0", count: max(0, 4 - number.count)) + number + ".JPG"
            state.pictures.append((name, jpeg))
            state.nextPictureNumber += 1
            return name
        }
        configuration.log("new picture \(name)")
    }
}
