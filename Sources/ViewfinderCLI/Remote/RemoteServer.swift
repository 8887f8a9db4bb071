import Dispatch
import Foundation
import Viewfinder
import ViewfinderHTTP
import ViewfinderSystem

/// The remote's web server: the page, and the API it calls to follow and control the camera.
///
/// Routes (every answer `Connection: close`; errors are plain text with a 4xx or 5xx status):
///
/// - `GET /`: the page.
/// - `GET /api/state?since=N`: the camera's ``RemoteCamera/Snapshot`` as JSON, once its version is above `N` (at
///   most ``Configuration/longPoll`` later).
/// - `POST /api/live-view`: starts live view, which stops again once no page has asked for a frame for a while.
/// - `GET /live.jpg?after=N`: the first live view frame numbered above `N`, its number in `X-Frame-Number`.
/// - `POST /api/properties/NAME` with the form field `value`: sets a property, and answers with the new state.
/// - `POST /api/shutter` (field `af=1` to focus first), `POST /api/recording` (field `action=start|stop`).
/// - `POST /api/shutter-button` (field `action=hold|keep|release`): holds the shutter open for a bulb exposure, renews
///   the hold, and lets it go; a page that goes away lets it go as it leaves, a hold not renewed for
///   ``Configuration/holdLease`` is let go (``RemoteShutterHold``), and the server lets it go when it stops.
/// - `POST /api/focus` (fields `size=small|medium|large`, `towards=camera|infinity`): moves the lens's focus a step.
/// - `POST /api/touch-af` (fields `x` and `y`, fractions of the live view picture from its top-left corner, 0 to 1):
///   focuses at that point of the latest frame.
/// - `GET /api/automation`: how the page's automation goes (``RemoteAutomation/Progress``), `null` before the first;
///   `POST /api/automation` (field `action=start` with `kind=timelapse|bracket` and its settings, or `action=stop`)
///   starts one, refused while another runs, or stops it.
/// - `GET /api/files`: the card's files, newest first; `GET /files/HANDLE/thumbnail.jpg`, `GET /files/HANDLE`.
///
/// The shared server's policy (``HTTPAccess``) guards every route: the request must name this machine, carry the
/// token (the page's cookie) on every route but the page, and come from the page for a change. A `GET` changes
/// nothing on the camera: live view starts with a `POST`. Requests that wait for something new (`/api/state`,
/// `/live.jpg`) wait at most ``Configuration/longPoll``, and at most half the connections wait at once, so a change
/// always finds a connection; more are answered `429` at once.
final class RemoteServer: Sendable {
    /// Where the server listens and how long it waits.
    struct Configuration: Sendable {
        /// The address, port, connection caps and the names the server answers to.
        var http = HTTPServer.Configuration()
        /// How long a browser may take to take a piece of an answer.
        var sendTimeout = Duration.seconds(30)
        /// How long `/api/state` and `/live.jpg` wait for something new.
        var longPoll = Duration.seconds(20)
        /// How long the camera may take for what a page asks of it, and for each piece of a download.
        var cameraTimeout = Duration.seconds(60)
        /// How long a held shutter stays held without the page renewing the hold.
        var holdLease = Duration.seconds(5)
    }

    /// A request the server refuses, with the status and the message to send.
    struct Refusal: Error {
        var status: String
        var message: String
    }

    let configuration: Configuration
    let camera: RemoteCamera
    let liveView: RemoteLiveView
    let http: HTTPServer
    /// The camera's files as last listed, by the files version of the snapshot they were listed at.
    let listing = SingleFlight<Int, [CameraFileListing.Entry]>()
    /// The files being downloaded, by handle: one download of a file at a time.
    let downloads = Locked<Set<UInt32>>([])
    /// How many requests wait for something new now.
    private let waiting = Locked(0)
    /// The shutter a page holds open.
    let shutterHold: RemoteShutterHold
    /// The timelapse or bracket a page runs.
    let automation: RemoteAutomation

    /// A server for `camera`; it does not listen until ``start()``.
    init(camera: RemoteCamera, configuration: Configuration = Configuration()) throws {
        self.camera = camera
        self.configuration = configuration
        liveView = RemoteLiveView(camera: camera.camera)
        shutterHold = RemoteShutterHold(camera: camera.camera, lease: configuration.holdLease)
        automation = RemoteAutomation(camera: camera.camera)
        http = try HTTPServer(name: "remote", configuration: configuration.http)
    }

    /// Starts listening; returns the port.
    @discardableResult
    func start() throws -> UInt16 {
        try http.start { [weak self] exchange in self?.serve(exchange) }
    }

    /// The address to open, with the token, such as `http://127.0.0.1:8080/?token=…`.
    var url: String { http.url }

    /// Stops serving, lets go of a held shutter and lets live view go.
    func stop() {
        http.stop()
        automation.cancel()
        if shutterHold.released() {
            _ = try? perform { try await $0.disengageShutter() }
        }
        liveView.stop()
    }

    // MARK: Requests

    /// What a request gets: a whole answer, or a file sent as it comes from the camera.
    private enum Reply {
        case whole(HTTPResponse)
        case file(CameraFileItem)
    }

    private func serve(_ exchange: HTTPExchange) {
        let reply: Reply
        do {
            reply = try answer(exchange.request)
        } catch let refusal as Refusal {
            reply = .whole(.text(refusal.status, refusal.message))
        } catch {
            reply = .whole(Self.failure(error))
        }
        switch reply {
        case .whole(let response): exchange.respond(response, within: configuration.sendTimeout)
        case .file(let item): send(item, on: exchange)
        }
    }

    private func answer(_ request: HTTPRequest) throws -> Reply {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        func allow(_ methods: String...) throws {
            guard methods.contains(request.method) else {
                throw Refusal(
                    status: "405 Method Not Allowed",
                    message: "\(request.path) takes \(methods.joined(separator: " or ")), not \(request.method).")
            }
        }
        switch (parts.first ?? "", parts.count) {
        case ("", 1), ("index.html", 1):
            try allow("GET", "HEAD")
            return .whole(
                HTTPResponse(status: "200 OK", contentType: "text/html; charset=utf-8", body: RemotePage.html))
        case ("live.jpg", 1):
            try allow("GET")
            return .whole(try waitingForSomethingNew { try liveFrame(after: Int(request.query["after"] ?? "") ?? 0) })
        case ("api", 2) where parts[1] == "live-view":
            try allow("POST")
            liveView.start()
            return .whole(.json(["liveView": "on"]))
        case ("api", 2) where parts[1] == "state":
            try allow("GET")
            let since = Int(request.query["since"] ?? "") ?? -1
            return .whole(
                try waitingForSomethingNew {
                    .json(camera.snapshot(newerThan: since, until: .now + configuration.longPoll))
                })
        case ("api", 2) where parts[1] == "files":
            try allow("GET")
            return .whole(.json(try files().reversed().map(\.record)))
        case ("api", 2) where parts[1] == "shutter":
            try allow("POST")
            try refuseDuringAutomation()
            let focus = request.formFields["af"] == "1"
            try perform { camera in try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(focus) }
            return .whole(.json(camera.current))
        case ("api", 2) where parts[1] == "shutter-button":
            try allow("POST")
            try refuseDuringAutomation()
            switch request.formFields["action"] {
            case "hold":
                try perform { try await $0.engageShutter() }
                shutterHold.held()
            case "keep":
                guard shutterHold.keep() else {
                    throw Refusal(
                        status: "409 Conflict",
                        message: "The shutter is not held: it was let go after \(shutterHold.lease) without a renewal.")
                }
            case "release":
                shutterHold.released()
                try perform { try await $0.disengageShutter() }
            default: throw Refusal(status: "400 Bad Request", message: "The field 'action' is hold, keep or release.")
            }
            return .whole(.json(camera.current))
        case ("api", 2) where parts[1] == "automation":
            try allow("GET", "POST")
            guard request.method == "POST" else { return .whole(.json(automation.progress)) }
            switch request.formFields["action"] {
            case "start": return .whole(.json(try automation.start(request.formFields)))
            case "stop": return .whole(.json(try automation.stop()))
            default: throw Refusal(status: "400 Bad Request", message: "The field 'action' is start or stop.")
            }
        case ("api", 2) where parts[1] == "focus":
            try allow("POST")
            guard let size = CameraFocusCommand.sizes[request.formFields["size"] ?? ""],
                let direction = CameraFocusCommand.directions[request.formFields["towards"] ?? ""]
            else {
                throw Refusal(
                    status: "400 Bad Request",
                    message: "The field 'size' is small, medium or large, and 'towards' is camera or infinity.")
            }
            try perform { try await $0.driveFocus(size, towards: direction) }
            return .whole(.json(camera.current))
        case ("api", 2) where parts[1] == "touch-af":
            try allow("POST")
            let point = try touchPoint(x: request.formFields["x"], y: request.formFields["y"])
            try perform { try await $0.touchAutoFocus(at: point) }
            return .whole(.json(["x": point.x, "y": point.y]))
        case ("api", 2) where parts[1] == "recording":
            try allow("POST")
            switch request.formFields["action"] {
            case "start": try perform { try await $0.startVideoRecording() }
            case "stop": try perform { try await $0.stopVideoRecording() }
            default: throw Refusal(status: "400 Bad Request", message: "The field 'action' is start or stop.")
            }
            camera.refresh()
            return .whole(.json(camera.current))
        case ("api", 3) where parts[1] == "properties":
            try allow("POST")
            return .whole(try setProperty(parts[2], to: request.formFields["value"]))
        case ("files", 2):
            try allow("GET", "HEAD")
            return .file(try file(parts[1]))
        case ("files", 3) where parts[2] == "thumbnail.jpg":
            try allow("GET")
            return .whole(try thumbnail(of: try file(parts[1])))
        default:
            throw Refusal(status: "404 Not Found", message: "There is nothing at \(request.path); try /.")
        }
    }

    /// Refuses the shutter while an automation takes its pictures.
    private func refuseDuringAutomation() throws {
        if let running = automation.progress, running.running {
            throw Refusal(
                status: "409 Conflict", message: "A \(running.kind) is taking pictures; stop it to use the shutter.")
        }
    }

    /// Runs `body`, which waits for something new, unless half the connections wait already.
    private func waitingForSomethingNew(_ body: () throws -> HTTPResponse) throws -> HTTPResponse {
        let limit = max(1, configuration.http.maximumConnections / 2)
        let admitted = waiting.withLock { waiting in
            guard waiting < limit else { return false }
            waiting += 1
            return true
        }
        guard admitted else {
            throw Refusal(
                status: "429 Too Many Requests",
                message: "\(limit) requests wait for the camera already; try again in a moment.")
        }
        defer { waiting.withLock { $0 -= 1 } }
        return try body()
    }

    private func liveFrame(after number: Int) throws -> HTTPResponse {
        let found: RemoteLiveView.Frame?
        do {
            found = try liveView.frame(after: number, until: .now + configuration.longPoll)
        } catch is RemoteLiveView.Off {
            throw Refusal(
                status: "409 Conflict", message: "Live view is off; the page starts it with POST /api/live-view.")
        }
        guard let frame = found else {
            throw Refusal(status: "504 Gateway Timeout", message: "The camera sent no live view frame in time.")
        }
        var response = HTTPResponse(status: "200 OK", contentType: "image/jpeg", body: frame.jpeg)
        response.headers = [("X-Frame-Number", "\(frame.number)")]
        return response
    }

    /// The point of the latest live view frame's coordinate space at the fractions `x` and `y` of the picture.
    private func touchPoint(x: String?, y: String?) throws -> LiveViewPoint {
        guard let x = x.flatMap(Double.init), let y = y.flatMap(Double.init), (0...1).contains(x), (0...1).contains(y)
        else {
            throw Refusal(
                status: "400 Bad Request", message: "The fields 'x' and 'y' are fractions of the picture, 0 to 1.")
        }
        guard let aspect = liveView.latestAspect else {
            throw Refusal(status: "409 Conflict", message: "Touch AF needs live view; no frame has come yet.")
        }
        return LiveViewPoint(
            x: Int((x * Double(aspect.width)).rounded()), y: Int((y * Double(aspect.height)).rounded()))
    }

    private func setProperty(_ name: String, to value: String?) throws -> HTTPResponse {
        guard let property = CameraProperties.all.first(where: { $0.name == name }) else {
            throw Refusal(status: "404 Not Found", message: "There is no property '\(name)'.")
        }
        guard let value, !value.isEmpty, value.count <= 64 else {
            throw Refusal(status: "400 Bad Request", message: "Give the new value of \(name) in the field 'value'.")
        }
        try perform { camera in try await property.set(value, on: camera) }
        camera.refresh()
        return .json(camera.current)
    }

    // MARK: Camera calls

    /// Runs a call to the camera from a connection's thread, waiting for it at most the camera timeout.
    func perform<Result: Sendable>(
        _ body: @escaping @Sendable (any Camera) async throws -> Result
    ) throws -> Result {
        let camera = camera.camera
        guard camera.connectionState == .connected else {
            throw Refusal(status: "503 Service Unavailable", message: "The camera is not connected.")
        }
        let outcome = Locked<Swift.Result<Result, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            do {
                let value = try await body(camera)
                outcome.withLock { $0 = .success(value) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        guard done.wait(timeout: DispatchTime(.now + configuration.cameraTimeout)) == .success else {
            task.cancel()
            throw Refusal(status: "504 Gateway Timeout", message: "The camera did not answer in time.")
        }
        return try outcome.withLock { $0! }.get()
    }

    /// The answer to a failed camera call.
    static func failure(_ error: any Error) -> HTTPResponse {
        if let failure = error as? CommandFailure {
            let status =
                switch failure.exitStatus {
                case ExitStatus.badValue: "400 Bad Request"
                case ExitStatus.notFound: "404 Not Found"
                default: "502 Bad Gateway"
                }
            return .text(status, failure.message)
        }
        guard let error = error as? ViewfinderError else { return .text("500 Internal Server Error", "\(error)") }
        let status =
            switch error.code {
            case .invalidArgument: "400 Bad Request"
            case .notAvailable: "409 Conflict"
            case .deviceBusy: "409 Conflict"
            case .notConnected, .disconnected, .connectionFailed: "503 Service Unavailable"
            case .timeout: "504 Gateway Timeout"
            default: "502 Bad Gateway"
            }
        return .text(status, error.message)
    }
}
