import ViewfinderCore
import ViewfinderDiscovery
import ViewfinderHTTPMessage
import ViewfinderImaging
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

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
        /// The port of the content directory and the files; 60606 as on real bodies, 0 for a free one.
        public var contentPort: UInt16
        /// How many pictures are on the card at start.
        public var sampleImageCount: Int
        /// Whether the camera announces itself over SSDP as a Lumix does (a media server whose description is at
        /// `/Lumix/Server0/ddd`); it needs a bind address on a network interface.
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
        var servers: [(listener: Socket, thread: PlatformThread)] = []
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
            let control = try serve(port: configuration.port, name: "lumix-cgi") { self.answerCommand($0) }
            let content = try serve(port: configuration.contentPort, name: "lumix-cds") { self.answerContent($0) }
            let streamer = try PlatformThread(name: "lumix-stream") { self.streamLiveView() }
            state.withLock { $0.streamThread = streamer }
            if configuration.announces {
                let announcer = try SSDPAnnouncer(
                    .init(
                        udn: "uuid:4D454930-0100-1000-8001-A8C1FE000001", types: [SSDPSearcher.mediaServer],
                        manufacturer: "Panasonic", modelName: Self.model, friendlyName: Self.model, serialNumber: "",
                        address: configuration.bindAddress, descriptionPath: SSDPSearcher.lumixDescriptionPath))
                state.withLock { $0.announcer = announcer }
                configuration.log("announcing over SSDP at \(announcer.location)")
            }
            configuration.log(
                "listening on \(configuration.bindAddress):\(control) (cam.cgi) and :\(content) (content directory) "
                    + "as a Lumix")
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
            server.listener.shutdown()
            server.thread.join()
            server.listener.close()
        }
        streamer?.join()
    }

    /// A request: its head, body and the peer's address.
    struct Request {
        var head: HTTPHead
        var body: [UInt8]
        var peer: String

        /// The path, without the query.
        var path: String {
            let target = head.startWords.dropFirst().first.map(String.init) ?? "/"
            return String(target.prefix { $0 != "?" })
        }

        /// The query's fields, such as `mode` → `getstate`.
        var query: [String: String] {
            let target = head.startWords.dropFirst().first.map(String.init) ?? ""
            guard let mark = target.firstIndex(of: "?") else { return [:] }
            var fields: [String: String] = [:]
            for pair in target[target.index(after: mark)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                let value = parts.count > 1 ? String(parts[1]) : ""
                fields[String(parts[0])] = fields[String(parts[0])] ?? value.replacingPercentSlash
            }
            return fields
        }
    }

    /// An answer: status, content type and body.
    struct Answer {
        var status = "200 OK"
        var contentType = "text/xml"
        var body: [UInt8]
    }

    /// Listens on `port` and answers each request with `answer`, one connection at a time on a thread of its own.
    private func serve(port: UInt16, name: String, _ answer: @escaping @Sendable (Request) -> Answer) throws -> UInt16 {
        let listener: Socket
        do {
            listener = try Socket.listen(host: configuration.bindAddress, port: port)
        } catch {
            throw ViewfinderError(error)
        }
        let thread = try PlatformThread(name: name) {
            // Until stop() shuts the listener down, which ends accept with an error: a client may come after any
            // pause, and a camera left waiting longer than accept's timeout still answers.
            while true {
                let client: Socket
                do {
                    guard let accepted = try listener.accept(timeout: .seconds(3600)) else { continue }
                    client = accepted
                } catch {
                    return
                }
                if let request = Self.read(from: client) {
                    let reply = answer(request)
                    let head = HTTPHead(
                        startLine: "HTTP/1.1 \(reply.status)",
                        fields: [
                            .init("Server", "Panasonic"), .init("Content-Type", reply.contentType),
                            .init("Content-Length", String(reply.body.count)), .init("Connection", "close"),
                        ])
                    try? client.send(head.encoded() + reply.body, timeout: .seconds(10), while: "answering")
                }
                client.close()
            }
        }
        state.withLock { $0.servers.append((listener, thread)) }
        return listener.localPort
    }

    /// Reads one request, its body bounded to 64 KiB.
    private static func read(from client: Socket) -> Request? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        let deadline = ContinuousClock.now + .seconds(10)
        func receive() -> Bool {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            let count = buffer.withUnsafeMutableBytes { raw in
                (try? client.receive(into: raw, timeout: left, while: "reading a request")) ?? 0
            }
            received += buffer[..<count]
            return count > 0
        }
        var end: Int?
        while end == nil {
            guard received.count < 65536, receive() else { return nil }
            end = HTTPHead.end(in: received)
        }
        guard let end, let head = try? HTTPHead(parsing: received[..<end]) else { return nil }
        let peer = SocketAddress.filling { getpeername(client.descriptor, $0, &$1) }.1.host
        guard head["content-length"] != nil else { return Request(head: head, body: [], peer: peer) }
        guard var body = try? HTTPBodyReader(head: head, maximumLength: 65536) else { return nil }
        var taken = received[end...]
        while (try? body.take(taken)) != nil, !body.isComplete {
            let before = received.count
            guard receive() else { return nil }
            taken = received[before...]
        }
        return body.isComplete ? Request(head: head, body: body.body, peer: peer) : nil
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

extension String {
    /// The text with `%2F` read as `/`, the one escape Lumix clients send in values.
    fileprivate var replacingPercentSlash: String {
        split(separator: "%2F", omittingEmptySubsequences: false).joined(separator: "/")
    }
}
