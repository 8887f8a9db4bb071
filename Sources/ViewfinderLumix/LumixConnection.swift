import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderHTTPMessage
import ViewfinderSystem

/// One connection to a Lumix: its `cam.cgi` commands, sent one at a time from a thread of the connection's own, and
/// the poll that follows the camera's state.
public final class LumixConnection: CameraDriverConnection {
    struct State {
        /// Whether the camera showed it records video, at the last poll.
        var recording = false
        /// The files listed last, by their id.
        var files: [UInt32: LumixContentDirectory.File] = [:]
        /// Where the content directory takes its Browse, once the camera's description was asked for it.
        var contentControl: HTTPURL?
        /// How many files the card held when the shutter was pressed and held, when new-file observers want to hear.
        var filesBeforeHeldShutter: Int?
    }

    let host: String
    let configuration: LumixCamera.Configuration
    let context: CameraDriverContext
    /// The thread the exchanges run on, the poll, the error that ended the connection and live view.
    let link: HTTPCameraLink<LumixLiveView>
    let state = Locked(State())
    /// What the camera said about itself when the connection opened.
    let capability: LumixCapability
    /// The menus' settings, read once when the connection opened.
    let menus: LumixMenus

    /// Who made the camera and which model it is.
    public let deviceInfo: CameraDeviceInfo

    private init(
        configuration: LumixCamera.Configuration, context: CameraDriverContext, thread: IOThread,
        connection: HTTPKeptConnection, capability: LumixCapability, menus: LumixMenus, version: String
    ) {
        host = connection.host
        self.configuration = configuration
        self.context = context
        link = HTTPCameraLink(
            thread: thread, connection: connection, pollInterval: configuration.pollInterval,
            liveViewThreadName: "lumix-liveview")
        self.capability = capability
        self.menus = menus
        deviceInfo = CameraDeviceInfo(
            manufacturer: "Panasonic", model: capability.model, serialNumber: "", version: version)
    }

    /// Opens a connection: remote access, the capabilities, recording mode, the menus and a first reading of the
    /// state and settings.
    ///
    /// - Throws: `ViewfinderError/Code/pairingRequired` when the camera refuses remote access or needs the newer
    ///   login; what a command throws (``command(_:maximumLength:)``).
    static func open(
        host: String, configuration: LumixCamera.Configuration, context: CameraDriverContext
    ) async throws -> LumixConnection {
        let thread = try IOThread(name: "lumix-http")
        let http = HTTPKeptConnection(host: host, port: configuration.port)
        do {
            let exchange = { @Sendable (query: String) async throws(ViewfinderError) -> LumixReply in
                try await Self.command(query, on: thread, via: http, configuration: configuration)
            }
            try await requestAccess(exchange, host: host, deviceName: configuration.deviceName)
            let capability = try await LumixCapability(exchange)
            try await exchange("mode=camcmd&value=recmode").requireOK("switching to recording mode")
            var menus = LumixMenus()
            if let reply = try? await exchange("mode=getinfo&type=allmenu"), reply.result == "ok",
                let document = reply.document
            {
                menus = LumixMenus(allMenu: document)
            }
            let state = try await exchange("mode=getstate")
            try state.requireOK("reading the camera's state")
            let connection = LumixConnection(
                configuration: configuration, context: context, thread: thread, connection: http,
                capability: capability, menus: menus, version: state.childTexts(of: "state")["version"] ?? "")
            try await connection.readSettings(state: state)
            return connection
        } catch {
            thread.stop()
            http.close()
            throw error
        }
    }

    /// Asks for remote access the way bodies before the G9 II take it; tells a body that needs the newer login
    /// from one that refuses.
    private static func requestAccess(
        _ exchange: @Sendable (String) async throws(ViewfinderError) -> LumixReply, host: String, deviceName: String
    ) async throws(ViewfinderError) {
        let name = HTTPClient.percentEncoded(deviceName)
        let reply = try await exchange("mode=accctrl&type=req_acc&value=0&value2=\(name)")
        if reply.result == "ok" { return }
        let refusal = reply.result.isEmpty ? "no answer word" : "'\(reply.result.prefix(40))'"
        if let newer = try? await exchange("mode=accctrl&type=req_acc_g"), newer.result == "ok" {
            throw ViewfinderError(
                .pairingRequired,
                "the Lumix at \(host) refused the older remote access request (\(refusal)) and asks for Panasonic's "
                    + "newer login (req_acc_g, LUMIX Sync's key exchange, on bodies from the G9 II on), which "
                    + "Viewfinder does not speak; bodies that take the older request (TZ90, GH5, G9 and their "
                    + "generation) connect")
        }
        throw ViewfinderError(
            .pairingRequired,
            "the Lumix at \(host) refused remote access (\(refusal)); on the camera, start Wi-Fi > Remote Shooting "
                + "& View, and allow \(deviceName) when the camera asks")
    }

    /// Sends one `cam.cgi` command on the connection's thread and reads its answer.
    ///
    /// - Throws: `ViewfinderError`: `connectionFailed`, `timeout` or `disconnected` when the camera does not
    ///   answer in time, `malformedData` for an answer that is not a Lumix's (an HTTP status other than 200, XML out
    ///   of form, a body over the bound), `notConnected` once the connection is closed.
    func command(_ query: String, maximumLength: Int? = nil) async throws(ViewfinderError) -> LumixReply {
        try await Self.command(
            query, on: link.thread, via: link.connection, configuration: configuration, maximumLength: maximumLength)
    }

    private static func command(
        _ query: String, on thread: IOThread, via connection: HTTPKeptConnection,
        configuration: LumixCamera.Configuration, maximumLength: Int? = nil
    ) async throws(ViewfinderError) -> LumixReply {
        let host = connection.host
        let url = HTTPURL(host: host, port: configuration.port, target: "/cam.cgi?\(query)")
        let activity = "sending \(query) to the Lumix at \(HostPort.text(host, port: configuration.port))"
        let bound = maximumLength ?? configuration.maximumAnswerLength
        let timeout = configuration.requestTimeout
        // A get mode (getstate, getsetting, getinfo, get_content_info) only reads, so it may go once more when the
        // kept connection turns out closed under it.
        let repeatable = query.hasPrefix("mode=get")
        return try await Self.run(on: thread) { () throws(ViewfinderError) -> LumixReply in
            let answer = try connection.exchange(
                url.getRequest(keepingConnection: true), deadline: .now + timeout, maximumBodyLength: bound,
                activity: activity, repeatable: repeatable)
            guard answer.status == 200 else {
                throw ViewfinderError(
                    .malformedData, "the Lumix at \(host) answered \(query) with HTTP \(answer.status), not 200")
            }
            return try LumixReply(answer.body, command: query)
        }
    }

    /// Runs blocking `body` on `thread` and returns what it returns, without holding a thread of Swift's pool.
    ///
    /// - Throws: What `body` throws, or `ViewfinderError/Code/notConnected` once the thread has stopped.
    static func run<Value: Sendable>(
        on thread: IOThread, _ body: @escaping @Sendable () throws(ViewfinderError) -> Value
    ) async throws(ViewfinderError) -> Value {
        try await HTTPClient.run(on: thread, peer: "the Lumix", body)
    }

    /// Sends a camera command (`camcmd`) and throws unless the camera answers ok.
    func cameraCommand(_ value: String, while activity: String) async throws(ViewfinderError) {
        try await command("mode=camcmd&value=\(value)").requireOK(activity)
    }

    // MARK: CameraDriverConnection

    /// Still pictures, the shutter held down, live view, video, properties and the card's files; the half press
    /// when the camera offers a one-shot autofocus (`oneshot_af_enable`).
    ///
    /// Not the focus drive, the clock or deleting files, which the driver does not send.
    public var functionality: CameraFunctionality {
        var functionality: CameraFunctionality = [
            .stillCapture, .heldShutter, .liveView, .propertyControl, .videoRecording, .fileAccess,
        ]
        if capability.specs.contains("oneshot_af_enable") {
            functionality.insert(.shutterHalfPress)
        }
        return functionality
    }

    /// How the driver speaks to the camera.
    public var driverDescription: String { "over Panasonic's HTTP API" }

    /// The error that ended the connection once the camera went away.
    public var endingError: ViewfinderError? { link.endingError }

    /// Polls the camera until the connection closes or a poll fails.
    public func run() async -> ViewfinderError? {
        // The camera answers busy or refusing for now (err_busy while it writes a picture): the poll goes on.
        await link.run { [self] in try await readSettings(state: try await command("mode=getstate")) }
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

    /// Opens a UDP port for live view and asks the camera, in recording mode, to stream to it (`startstream`).
    ///
    /// The camera sends to the address the request came from. It stops streaming unless asked again; the poll's
    /// `getstate` each second asks, as gphoto2's driver does between its frames.
    public func startLiveView() async throws {
        let liveView = try LumixLiveView(
            host: host, thread: try link.liveViewThread(), timeout: configuration.liveViewTimeout)
        try await link.start(liveView) { [self] in
            try await cameraCommand("recmode", while: "switching to recording mode for live view")
            try await command("mode=startstream&value=\(liveView.port)").requireOK("starting live view")
        }
    }

    /// The thread live view's datagrams are read on: live view's publisher runs there, so a frame wakes no other
    /// thread.
    public var liveViewExecutor: (any TaskExecutor)? { try? link.liveViewThread() }

    /// The newest frame the camera sent since the last one asked for; those in between are dropped.
    public func liveViewImage() async throws -> [UInt8] {
        try await link.runningLiveView(on: "the Lumix at \(host)").nextImage()
    }

    /// Closes live view's port and asks the camera to stop streaming (`stopstream`).
    public func endLiveView() async {
        guard let liveView = link.takeLiveView() else { return }
        liveView.close()
        _ = try? await command("mode=stopstream")
    }

    // MARK: Shooting

    /// Takes a picture: a one-shot autofocus first when asked and the camera offers it, then the shutter pressed
    /// and let go; new-file observers, when there are any, hear of the picture once the card lists it.
    public func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {
        let before = context.wantsNewFiles ? try? await contentCount() : nil
        if engageAutoFocus, capability.specs.contains("oneshot_af_enable") {
            try await cameraCommand("oneshot_af", while: "focusing")
        }
        try await cameraCommand("capture", while: "taking a picture")
        // A body in bulb keeps the shutter open until this; others take it as a no-op, as gphoto2's driver relies on.
        try await cameraCommand("capture_cancel", while: "letting go of the shutter")
        if let before {
            await reportNewFiles(after: before)
        }
    }

    /// Focuses once (`oneshot_af`), as a half press does; returns once the camera has taken the command.
    public func engageAutoFocus() async throws {
        try await cameraCommand("oneshot_af", while: "focusing")
    }

    /// Does nothing: the camera's one-shot autofocus holds no button down, and the focus stays where it went.
    public func disengageAutoFocus() async throws {}

    /// Presses the shutter (`capture`) and holds it: a body in bulb keeps the shutter open until
    /// ``disengageShutter()``.
    public func engageShutter() async throws {
        let before = context.wantsNewFiles ? try? await contentCount() : nil
        try await cameraCommand("capture", while: "pressing the shutter")
        state.withLock { $0.filesBeforeHeldShutter = before }
    }

    /// Lets go of the shutter (`capture_cancel`), which ends a bulb exposure; new-file observers, when there are
    /// any, hear of the picture once the card lists it.
    public func disengageShutter() async throws {
        try await cameraCommand("capture_cancel", while: "letting go of the shutter")
        let before = state.withLock { state in
            defer { state.filesBeforeHeldShutter = nil }
            return state.filesBeforeHeldShutter
        }
        if let before {
            await reportNewFiles(after: before)
        }
    }

    /// Starts recording video; the poll shows the recording.
    public func startRecording() async throws {
        try await cameraCommand("video_recstart", while: "starting a recording")
        state.withLock { $0.recording = true }
        context.recordingStarted()
    }

    /// Stops recording video.
    public func stopRecording() async throws {
        try await cameraCommand("video_recstop", while: "stopping the recording")
        state.withLock { $0.recording = false }
        context.recordingStopped()
    }
}
