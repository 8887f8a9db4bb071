import ViewfinderCore
import ViewfinderDiscovery
import ViewfinderHTTPClient
import ViewfinderHTTPMessage
import ViewfinderSystem

/// One connection to an Olympus or OM System camera: its CGI commands, sent one at a time from a thread of the
/// connection's own, the mode each operation needs, and the poll that follows the camera's properties.
public final class OlympusConnection: CameraDriverConnection {
    /// A mode the camera serves in: `rec` (properties, live view), `shutter` (`exec_shutter`) or `play` (the card).
    enum Mode: String, Sendable {
        case recording = "rec"
        case shutter
        case playback = "play"
    }

    struct State {
        /// The mode the camera was last switched to.
        var mode: Mode?
        /// The entries listed so far, by the id given them.
        var entries: [UInt32: OlympusFolderEntry] = [:]
        /// The id given each path listed.
        var ids: [String: UInt32] = [:]
        /// The property descriptions last read and passed to the properties, as the camera sent them.
        var descriptions: [UInt8]?
    }

    let host: String
    let configuration: OlympusCamera.Configuration
    let context: CameraDriverContext
    /// The thread the exchanges run on, the poll, the error that ended the connection and live view.
    let link: HTTPCameraLink<OlympusLiveView>
    let state = Locked(State())
    /// Runs one operation at a time in the mode it needs, so that a poll never switches the camera under a download.
    let serial = SerialTasks()
    /// The commands the camera lists, with their arguments; a command it does not list is not sent.
    let commandList: OlympusCommandList

    /// Who made the camera and which model it is.
    public let deviceInfo: CameraDeviceInfo

    /// Still pictures, properties and the card's files; live view where the camera lists `startliveview`, the half
    /// press where it lists `exec_takemotion` `takeready`, and video where it lists `starttake` and `stoptake`.
    ///
    /// Not the battery level: the OI.Share API gives none (`get_caminfo` names the model alone). Read from the
    /// command list once, as the core asks for it with every live view frame.
    public let functionality: CameraFunctionality

    private init(
        configuration: OlympusCamera.Configuration, context: CameraDriverContext, thread: IOThread,
        connection: HTTPKeptConnection, commandList: OlympusCommandList, model: String
    ) {
        host = connection.host
        self.configuration = configuration
        self.context = context
        link = HTTPCameraLink(
            thread: thread, connection: connection, pollInterval: configuration.pollInterval,
            liveViewThreadName: "olympus-liveview")
        self.commandList = commandList
        functionality = Self.functionality(listedIn: commandList)
        deviceInfo = CameraDeviceInfo(
            manufacturer: "Olympus", model: model, serialNumber: "",
            version: commandList.versions["version"] ?? "")
    }

    /// Opens a connection: the connect mode, the command list, the camera's model, recording mode and a first
    /// reading of the properties.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the peer gives no connect mode (it is no Olympus) or a
    ///   command list out of form; what a command throws.
    static func open(
        host: String, configuration: OlympusCamera.Configuration, context: CameraDriverContext
    ) async throws -> OlympusConnection {
        let thread = try IOThread(name: "olympus-http")
        let http = HTTPKeptConnection(host: host, port: configuration.port)
        do {
            let send = { @Sendable (name: String) async throws(ViewfinderError) -> [UInt8] in
                try await Self.command(name, on: thread, via: http, configuration: configuration)
            }
            let connectMode = try XMLElements(
                try await send("get_connectmode"), from: "the camera's connect mode", maximumLength: 4096
            ).first("connectmode")?.text
            guard let connectMode, !connectMode.isEmpty else {
                throw ViewfinderError(
                    .malformedData,
                    "\(HostPort.text(host, port: configuration.port)) gives no connect mode: it is no Olympus or OM "
                        + "System camera")
            }
            let commandList = try OlympusCommandList(parsing: try await send("get_commandlist"))
            var model = "Olympus camera"
            if commandList.commands["get_caminfo"] != nil,
                let info = try? XMLElements(
                    try await send("get_caminfo"), from: "the camera's information", maximumLength: 1 << 16),
                let name = info.first("model")?.text, !name.isEmpty
            {
                model = name
            }
            let connection = OlympusConnection(
                configuration: configuration, context: context, thread: thread, connection: http,
                commandList: commandList, model: model)
            try await connection.inMode(.recording) { try await connection.readProperties() }
            return connection
        } catch {
            thread.stop()
            http.close()
            throw error
        }
    }

    /// Sends one command the camera lists, with `arguments` as its query (or a POST with `body`), on the
    /// connection's thread, and returns the answer's body.
    ///
    /// - Throws: `ViewfinderError`: `notAvailable` for a command or value the camera does not list or refuses in
    ///   its mode (HTTP 520), `notFound` for HTTP 404, `malformedData` for another status or a body over the bound,
    ///   `connectionFailed`, `timeout` or `disconnected` when the camera does not answer in time, `notConnected`
    ///   once the connection is closed.
    func command(
        _ name: String, _ arguments: [(name: String, value: String)] = [], body: [UInt8]? = nil,
        maximumLength: Int? = nil
    ) async throws(ViewfinderError) -> [UInt8] {
        guard commandList.accepts(name, arguments) else {
            let query = arguments.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            throw ViewfinderError(
                .notAvailable, "the Olympus at \(host) does not list \(name)\(query.isEmpty ? "" : " \(query)")")
        }
        return try await Self.command(
            name, arguments, body: body, on: link.thread, via: link.connection, configuration: configuration,
            maximumLength: maximumLength)
    }

    private static func command(
        _ name: String, _ arguments: [(name: String, value: String)] = [], body: [UInt8]? = nil, on thread: IOThread,
        via connection: HTTPKeptConnection, configuration: OlympusCamera.Configuration, maximumLength: Int? = nil
    ) async throws(ViewfinderError) -> [UInt8] {
        let host = connection.host
        let query = arguments.map { "\($0.name)=\(HTTPClient.percentEncoded($0.value))" }.joined(separator: "&")
        let request = Self.request(
            "/\(name).cgi" + (query.isEmpty ? "" : "?" + query), host: host, port: configuration.port, body: body)
        let activity = "sending \(name) to the Olympus at \(HostPort.text(host, port: configuration.port))"
        let bound = maximumLength ?? configuration.maximumAnswerLength
        let timeout = configuration.requestTimeout
        // A get_ command only reads, so it may go once more when the kept connection turns out closed under it.
        let repeatable = name.hasPrefix("get_")
        let answer = try await HTTPClient.run(on: thread, peer: "the Olympus") {
            () throws(ViewfinderError) -> HTTPClient.Answer in
            try connection.exchange(
                request, body: body ?? [], deadline: .now + timeout, maximumBodyLength: bound, activity: activity,
                repeatable: repeatable)
        }
        switch answer.status {
        case 200, 202:
            return answer.body
        case 520:
            let code = (try? XMLElements(answer.body, from: "an error", maximumLength: 4096))?.first("errorcode")?.text
            throw ViewfinderError(
                .notAvailable,
                "the Olympus at \(host) refused \(name) in its current mode (HTTP 520, error code \(code ?? "none"))")
        case 404:
            throw ViewfinderError(.notFound, "the Olympus at \(host) has nothing at \(name) \(query) (HTTP 404)")
        default:
            throw ViewfinderError(
                .malformedData, "the Olympus at \(host) answered \(name) with HTTP \(answer.status), not 200")
        }
    }

    /// A request for `target` as OI.Share sends it: its user agent, a GET, or a POST of `body` as text; HTTP/1.1, so
    /// the camera may keep the connection for the next one.
    static func request(_ target: String, host: String, port: UInt16, body: [UInt8]? = nil) -> HTTPHead {
        var fields: [HTTPHead.Field] = [
            .init("Host", HostPort.text(host, port: port)), .init("User-Agent", "OI.Share v2"),
        ]
        if let body {
            fields += [.init("Content-Type", "text/plain;charset=utf-8"), .init("Content-Length", "\(body.count)")]
        }
        return HTTPHead(startLine: "\(body == nil ? "GET" : "POST") \(target) HTTP/1.1", fields: fields)
    }

    /// Runs `body` with the camera in `mode`, no other operation switching it meanwhile; the camera returns to
    /// recording mode after an operation in another.
    func inMode<Value: Sendable>(
        _ mode: Mode, _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await serial.run { [self] () async throws -> Value in
            try await switchMode(to: mode)
            let outcome: Result<Value, any Error>
            do {
                outcome = .success(try await body())
            } catch {
                outcome = .failure(error)
            }
            if mode != .recording {
                try await switchMode(to: .recording)
            }
            return try outcome.get()
        }
    }

    private func switchMode(to mode: Mode) async throws(ViewfinderError) {
        guard state.withLock({ $0.mode }) != mode else { return }
        state.withLock { $0.mode = nil }
        _ = try await command("switch_cammode", [("mode", mode.rawValue)])
        state.withLock { $0.mode = mode }
    }

    /// Whether the camera lists a shutter mode, where `exec_shutter` takes pictures.
    var hasShutterMode: Bool {
        commandList.values(of: "mode", in: "switch_cammode").contains(Mode.shutter.rawValue)
    }

    // MARK: CameraDriverConnection

    /// What a camera with `commandList` offers: see ``functionality``.
    private static func functionality(listedIn commandList: OlympusCommandList) -> CameraFunctionality {
        var functionality: CameraFunctionality = [.stillCapture, .propertyControl, .fileAccess]
        if commandList.accepts("exec_takemisc", [("com", "startliveview")]) {
            functionality.insert(.liveView)
        }
        if takesMotion("takeready", in: commandList) {
            functionality.insert(.shutterHalfPress)
        }
        if takesMotion("starttake", in: commandList), takesMotion("stoptake", in: commandList) {
            functionality.insert(.videoRecording)
        }
        return functionality
    }

    /// How the driver speaks to the camera.
    public var driverDescription: String { "over Olympus's HTTP API" }

    /// The error that ended the connection once the camera went away.
    public var endingError: ViewfinderError? { link.endingError }

    /// Polls the camera's properties until the connection closes or a poll fails.
    public func run() async -> ViewfinderError? {
        await link.run { [self] in try await inMode(.recording) { [self] in try await readProperties() } }
    }

    /// Stops the poll, live view and the connection's thread.
    public func close() async {
        link.close()
    }

    /// Records why the connection ended, so calls under way say so, and stops the poll and live view.
    public func connectionEnded(with error: ViewfinderError) {
        link.connectionEnded(with: error)
    }

    // MARK: Live view

    /// Opens a UDP port for live view and asks the camera, in recording mode at 640×480 where it lists that size,
    /// to stream to it (`exec_takemisc.cgi?com=startliveview`).
    public func startLiveView() async throws {
        let liveView = try OlympusLiveView(
            host: host, port: configuration.liveViewPort, thread: try link.liveViewThread(),
            timeout: configuration.liveViewTimeout, maximumFrameLength: configuration.maximumFrameLength)
        try await link.start(liveView) { [self] in
            try await inMode(.recording) { [self] in
                let sizes = commandList.values(of: "lvqty", in: "switch_cammode", after: [("mode", "rec")])
                if let size = sizes.contains("0640x0480") ? "0640x0480" : sizes.first {
                    _ = try await command("switch_cammode", [("mode", "rec"), ("lvqty", size)])
                }
                _ = try await command("exec_takemisc", [("com", "startliveview"), ("port", String(liveView.port))])
            }
        }
    }

    /// The thread live view's packets are read on: live view's publisher runs there, so a frame wakes no other
    /// thread.
    public var liveViewExecutor: (any TaskExecutor)? { try? link.liveViewThread() }

    /// The newest whole frame the camera sent since the last one was asked for, or the next; older ones are
    /// dropped.
    public func liveViewImage() async throws -> [UInt8] {
        try await link.runningLiveView(on: "the Olympus at \(host)").nextFrame().jpeg
    }

    /// Closes live view's port and asks the camera to stop streaming (`stopliveview`).
    public func endLiveView() async {
        guard let liveView = link.takeLiveView() else { return }
        liveView.close()
        _ = try? await inMode(.recording) { [self] in
            try await command("exec_takemisc", [("com", "stopliveview")])
        }
    }

    // MARK: Shooting

    /// Takes a picture: in shutter mode with `exec_shutter` (pressed and let go) where the camera lists that mode,
    /// otherwise in recording mode with `exec_takemotion`, which focuses first; new-file observers, when there are
    /// any, hear of the picture once the card lists it.
    public func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {
        let before = context.wantsNewFiles ? try? await allFiles() : nil
        if hasShutterMode {
            try await inMode(.shutter) { [self] in
                _ = try await command("exec_shutter", [("com", "1st2ndpush")])
                _ = try await command("exec_shutter", [("com", "2nd1strelease")])
            }
        } else {
            try await inMode(.recording) { [self] in
                _ = try await command("exec_takemotion", [("com", "starttake")])
            }
        }
        if let before {
            await reportNewFiles(after: Set(before.map(\.path)))
        }
    }
}
