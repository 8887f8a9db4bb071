import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderHTTPMessage
import ViewfinderSystem

/// One connection to a Sony Camera Remote API body: its JSON-RPC calls, sent one at a time from a thread of the
/// connection's own, and the `getEvent` long poll, on a thread of its own, that hears of the camera's changes.
public final class SonyRemoteConnection: CameraDriverConnection {
    struct State {
        /// The error that ended the connection, once it ended.
        var ended: ViewfinderError?
        /// The calls the camera lists now.
        var availableMethods: Set<String> = []
        /// Every call the camera listed while shooting on this connection: what it offers, though the shoot mode
        /// and the camera function decide what it lists at a time.
        var offeredMethods: Set<String> = []
        /// The camera function (`Remote Shooting`, `Contents Transfer`), and the result of the last switch.
        var cameraFunction = SonyRemoteConnection.remoteShooting
        var cameraFunctionResult: String?
        /// How many times the driver asked the camera to switch its function or shoot mode: an event asked for
        /// before the last switch tells of the camera as it was, and its function, status and calls are not taken.
        var modeSwitches = 0
        /// The camera's status, such as `IDLE` or `MovieRecording`.
        var status = ""
        /// The shoot modes the camera offers, such as `still` and `movie`.
        var shootModes: [String] = []
        /// Whether a touch AF position is set.
        var touchPositionSet = false
        /// The last live view frame, whose size is the coordinate space of touch AF.
        var lastLiveViewFrame: [UInt8]?
        /// The card's sources, such as `storage:memoryCard1`, by storage id less one.
        var sources: [String] = []
        /// The white balance modes the camera takes now, which its events do not carry.
        var whiteBalanceModes: [String] = []
        /// The files listed or taken, by id, and the id of each by its URL.
        var files: [UInt32: SonyRemoteFile] = [:]
        var fileIDs: [String: UInt32] = [:]
        var nextFileID: UInt32 = 1
        /// The number of the next call.
        var nextID = 1
        /// Live view's stream, while live view runs.
        var liveView: SonyRemoteLiveView?
    }

    let host: String
    let configuration: SonyRemoteCamera.Configuration
    let context: CameraDriverContext
    /// Where the `camera` service takes calls.
    let cameraURL: HTTPURL
    /// Where the `avContent` service takes calls, for a camera that names one.
    let avContentURL: HTTPURL?
    /// The thread the calls run on, one after another.
    let thread: IOThread
    /// The HTTP connection the calls to the camera service share while the camera keeps it open.
    let http: HTTPKeptConnection
    /// The thread the long poll waits on, so that calls go on while it waits.
    let pollThread: IOThread
    /// Ends the long poll under way when the connection closes.
    let pollCancellation = HTTPExchangeCancellation()
    let state = Locked(State())
    /// The camera, for errors.
    let peer: String

    /// Who made the camera and which model it is.
    public let deviceInfo: CameraDeviceInfo

    private init(
        host: String, configuration: SonyRemoteCamera.Configuration, context: CameraDriverContext,
        description: SonyRemoteDescription, cameraURL: HTTPURL, threads: (IOThread, IOThread)
    ) {
        self.host = host
        self.configuration = configuration
        self.context = context
        self.cameraURL = cameraURL
        http = HTTPKeptConnection(host: cameraURL.host, port: cameraURL.port)
        avContentURL = description.serviceURL("avContent")
        (thread, pollThread) = threads
        peer = "the Sony at \(HostPort.text(cameraURL.host, port: cameraURL.port))"
        deviceInfo = CameraDeviceInfo(
            manufacturer: "Sony", model: description.friendlyName.isEmpty ? "Sony camera" : description.friendlyName,
            serialNumber: "", version: description.version)
    }

    /// Opens a connection: the device description, the calls available, `startRecMode` where the camera lists it
    /// and the wait until it lists the shooting calls, the switch back to shooting of a camera left serving its
    /// card, and a first reading of the settings.
    ///
    /// - Throws: `ViewfinderError/Code/notFound` when the camera serves no description at the configured paths,
    ///   `malformedData` for a description that names no camera service, `timeout` when the camera does not list
    ///   the shooting calls in time; what a call throws.
    static func open(
        host: String, configuration: SonyRemoteCamera.Configuration, context: CameraDriverContext
    ) async throws -> SonyRemoteConnection {
        let thread = try IOThread(name: "sony-remote-http")
        let pollThread: IOThread
        do {
            pollThread = try IOThread(name: "sony-remote-event")
        } catch {
            thread.stop()
            throw error
        }
        do {
            let description = try await Self.description(host: host, configuration: configuration, on: thread)
            guard let cameraURL = description.serviceURL("camera") else {
                throw ViewfinderError(.malformedData, "the Sony at \(host) names no camera service")
            }
            let connection = SonyRemoteConnection(
                host: host, configuration: configuration, context: context, description: description,
                cameraURL: cameraURL, threads: (thread, pollThread))
            try await connection.startShooting()
            // A camera another client left serving its card shoots again before its settings are read.
            try await connection.readEvent()
            try await connection.enterRemoteShooting()
            try await connection.readSettings()
            return connection
        } catch {
            thread.stop()
            pollThread.stop()
            throw error
        }
    }

    /// Reads the device description at the first of the configured paths the camera serves.
    private static func description(
        host: String, configuration: SonyRemoteCamera.Configuration, on thread: IOThread
    ) async throws(ViewfinderError) -> SonyRemoteDescription {
        let endpoint = HostPort.text(host, port: configuration.port)
        for path in configuration.descriptionPaths {
            let request = HTTPURL(host: host, port: configuration.port, target: path).getRequest()
            let timeout = configuration.requestTimeout
            let answer = try await HTTPClient.run(on: thread, peer: "the Sony at \(endpoint)") {
                () throws(ViewfinderError) -> HTTPClient.Answer in
                try HTTPClient.exchange(
                    request, host: host, port: configuration.port, deadline: .now + timeout,
                    maximumBodyLength: configuration.maximumAnswerLength,
                    activity: "reading the device description of the Sony at \(endpoint)")
            }
            switch answer.status {
            case 200:
                return try SonyRemoteDescription(parsing: answer.body, from: "the description at \(endpoint)\(path)")
            case 404:
                continue
            default:
                throw ViewfinderError(
                    .malformedData, "\(endpoint) answered the description \(path) with HTTP \(answer.status)")
            }
        }
        throw ViewfinderError(
            .notFound,
            "\(endpoint) serves no device description at \(configuration.descriptionPaths.joined(separator: " or ")): "
                + "is the camera's Smart Remote Control running?")
    }

    /// Switches the camera to shooting with `startRecMode` where it lists that call, and waits until it lists the
    /// shooting calls.
    private func startShooting() async throws {
        try await readAvailableMethods()
        guard isAvailable("startRecMode") else { return }
        _ = try await call("startRecMode")
        let deadline = ContinuousClock.now + configuration.recModeTimeout
        while true {
            try await readAvailableMethods()
            if isAvailable("actTakePicture") || isAvailable("getEvent") && !isAvailable("startRecMode") { return }
            guard ContinuousClock.now < deadline else {
                throw ViewfinderError(
                    .timeout,
                    "\(peer) did not list the shooting calls within \(configuration.recModeTimeout) of startRecMode")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Reads the calls the camera lists now.
    func readAvailableMethods() async throws(ViewfinderError) {
        let result = try await call("getAvailableApiList")
        guard let names = result.first?.array?.compactMap(\.string) else {
            throw ViewfinderError(.malformedData, "\(peer) answered getAvailableApiList without a list of calls")
        }
        recordAvailable(names)
    }

    /// Records the calls the camera lists now, and while it shoots, among those it offers.
    func recordAvailable(_ names: [String]) {
        state.withLock { state in
            state.availableMethods = Set(names.prefix(1000))
            if state.cameraFunction == Self.remoteShooting {
                state.offeredMethods.formUnion(state.availableMethods)
            }
        }
    }

    /// Whether the camera lists `method` now.
    func isAvailable(_ method: String) -> Bool {
        state.withLock { $0.availableMethods.contains(method) }
    }

    /// Calls `method` of the camera service (or the service at `service`) with `params` on the connection's thread
    /// and returns its result.
    ///
    /// - Throws: `ViewfinderError`: the API's error array as ``SonyRemoteCall/error(code:message:method:peer:)``
    ///   maps it, `malformedData` for an answer that is not a JSON-RPC answer or over the bound, `connectionFailed`,
    ///   `timeout` or `disconnected` when the camera does not answer in time, `notConnected` once the connection is
    ///   closed.
    func call(
        _ method: String, _ params: [JSONValue] = [], service: HTTPURL? = nil, version: String = "1.0"
    ) async throws(ViewfinderError) -> [JSONValue] {
        let url = service ?? cameraURL
        let (request, body, activity) = prepare(method, params, to: url, version: version)
        let (timeout, bound) = (configuration.requestTimeout, configuration.maximumAnswerLength)
        let http = http
        let answer = try await HTTPClient.run(on: thread, peer: peer) {
            () throws(ViewfinderError) -> HTTPClient.Answer in
            guard url.host == http.host, url.port == http.port else {
                return try HTTPClient.exchange(
                    request, body: body, host: url.host, port: url.port, deadline: .now + timeout,
                    maximumBodyLength: bound, activity: activity)
            }
            // A get method only reads, so it may go once more when the kept connection turns out closed under it.
            return try http.exchange(
                request, body: body, deadline: .now + timeout, maximumBodyLength: bound, activity: activity,
                repeatable: method.hasPrefix("get"))
        }
        return try result(of: answer, method: method)
    }

    /// The request, body and activity of a call to the service at `url` (the camera service's by default).
    func prepare(
        _ method: String, _ params: [JSONValue], to url: HTTPURL? = nil, version: String = "1.0"
    ) -> (HTTPHead, [UInt8], String) {
        let url = url ?? cameraURL
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let body = SonyRemoteCall.body(method, params, id: id, version: version)
        let request = HTTPHead(
            startLine: "POST \(url.target) HTTP/1.1",
            fields: [
                .init("Host", HostPort.text(url.host, port: url.port)),
                .init("Content-Type", "application/json"), .init("Content-Length", "\(body.count)"),
            ])
        return (request, body, "calling \(method) on \(peer)")
    }

    /// The result of a call's answer.
    func result(of answer: HTTPClient.Answer, method: String) throws(ViewfinderError) -> [JSONValue] {
        guard answer.status == 200 else {
            throw ViewfinderError(.malformedData, "\(peer) answered \(method) with HTTP \(answer.status), not 200")
        }
        return try SonyRemoteCall.result(of: answer.body, method: method, peer: peer)
    }

    // MARK: CameraDriverConnection

    /// Still pictures, properties and files (the card, or the pictures' postviews); live view, the half press,
    /// touch AF and video where the camera offers their calls.
    public var functionality: CameraFunctionality {
        let (offered, shootModes) = state.withLock { ($0.offeredMethods, $0.shootModes) }
        var functionality: CameraFunctionality = [.stillCapture, .propertyControl, .fileAccess]
        let calls: [(String, CameraFunctionality)] = [
            ("startLiveview", .liveView), ("actHalfPressShutter", .shutterHalfPress),
            ("setTouchAFPosition", .touchAutoFocus), ("startMovieRec", .videoRecording),
        ]
        for (method, offering) in calls where offered.contains(method) {
            functionality.insert(offering)
        }
        if offered.contains("setShootMode"), shootModes.contains("movie") {
            functionality.insert(.videoRecording)
        }
        return functionality
    }

    /// How the driver speaks to the camera.
    public var driverDescription: String { "over Sony's Camera Remote API" }

    /// The error that ended the connection once the camera went away.
    public var endingError: ViewfinderError? { state.withLock { $0.ended } }

    /// Hears of the camera's changes through the `getEvent` long poll until the connection closes or the camera
    /// stops answering.
    public func run() async -> ViewfinderError? {
        while !pollCancellation.isCancelled {
            do {
                try await longPoll()
            } catch {
                switch error.code {
                case .notConnected:
                    return nil
                case .deviceBusy:
                    // Error 40402: a poll of another client's is under way; ask again shortly.
                    try? await Task.sleep(for: .milliseconds(500))
                default:
                    state.withLock { $0.ended = $0.ended ?? error }
                    return error
                }
            }
        }
        return nil
    }

    /// Waits for the camera's next change (`getEvent [true]`), within the long poll's deadline, and passes it on; the
    /// camera's own timeout (error 2) passes nothing.
    private func longPoll() async throws(ViewfinderError) {
        let (request, body, activity) = prepare("getEvent", [.bool(true)])
        let switches = state.withLock { $0.modeSwitches }
        let (url, timeout, bound) = (cameraURL, configuration.longPollTimeout, configuration.maximumAnswerLength)
        let cancellation = pollCancellation
        let answer = try await HTTPClient.run(on: pollThread, peer: peer) {
            () throws(ViewfinderError) -> HTTPClient.Answer in
            try cancellation.exchange(
                request, body: body, host: url.host, port: url.port, deadline: .now + timeout,
                maximumBodyLength: bound, activity: activity)
        }
        let event: [JSONValue]
        do {
            event = try result(of: answer, method: "getEvent")
        } catch {
            // Error 2: the camera's own wait ended without a change; the next poll waits again.
            guard error.code == .timeout else { throw error }
            return
        }
        apply(event: event, askedAfterSwitches: switches)
    }

    /// Stops the long poll, live view and the connection's threads.
    public func close() async {
        stop()
    }

    /// Records why the connection ended, so calls under way say so, and stops the long poll and live view.
    public func connectionEnded(with error: ViewfinderError) {
        state.withLock { $0.ended = $0.ended ?? error }
        stop()
    }

    private func stop() {
        let liveView = state.withLock { state in
            defer { state.liveView = nil }
            return state.liveView
        }
        pollCancellation.cancel()
        liveView?.close()
        thread.stop()
        pollThread.stop()
        http.close()
    }

    // MARK: Shooting

    /// Takes a picture with `actTakePicture` (`awaitTakePicture` while the camera is still busy with it); new-file
    /// observers hear of its postview, which ``SonyRemoteCamera`` downloads from the camera.
    public func takePicture(engagingAutoFocus engageAutoFocus: Bool) async throws {
        try await enterRemoteShooting()
        try await switchShootMode(to: "still", toList: "actTakePicture")
        let result: [JSONValue]
        do {
            result = try await call("actTakePicture")
        } catch {
            // Error 40403: the camera is still busy with the picture, whose URL awaitTakePicture gives.
            guard error.code == .deviceBusy, isAvailable("awaitTakePicture") else { throw error }
            result = try await call("awaitTakePicture")
        }
        guard let address = result.first?.array?.first?.string, let url = HTTPURL(address) else {
            throw ViewfinderError(.malformedData, "\(peer) answered actTakePicture without a postview URL")
        }
        let name = url.target.split(separator: "/").last.map { String($0.prefix { $0 != "?" }) } ?? ""
        let item = state.withLock { state in
            Self.register(
                name: name.isEmpty || name.utf8.count > 255 ? "postview.JPG" : name, kind: .jpegImage, storageID: 1,
                address: address, url: url, in: &state)
        }
        context.reportNewFile(item)
    }
}
