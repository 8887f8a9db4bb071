import Dispatch
import Foundation
import Viewfinder
import ViewfinderSystem

/// The remote's web server: the page, and the API it calls to follow and control the camera.
///
/// Routes (every answer `Connection: close`; errors are plain text with a 4xx or 5xx status):
///
/// - `GET /`: the page.
/// - `GET /api/state?since=N`: the camera's ``RemoteCamera/Snapshot`` as JSON, once its version is above `N` (at
///   most ``Configuration/longPoll`` later).
/// - `GET /live.jpg?after=N`: the first live view frame numbered above `N`, its number in `X-Frame-Number`.
/// - `POST /api/properties/NAME` with the form field `value`: sets a property, and answers with the new state.
/// - `POST /api/shutter` (field `af=1` to focus first), `POST /api/recording` (field `action=start|stop`).
/// - `GET /api/files`: the card's files, newest first; `GET /files/HANDLE/thumbnail.jpg`, `GET /files/HANDLE`.
///
/// A `POST` must carry `X-Viewfinder-Remote: 1`, which a page of another site cannot send without the server's
/// leave, and while the server listens on loopback a request must name a loopback host, so another site cannot reach
/// the camera through the browser.
final class RemoteServer: Sendable {
    /// Where the server listens and how long it waits.
    struct Configuration: Sendable {
        /// The address, port and connection cap.
        var http = HTTPServer.Configuration()
        /// How long a browser may take to send its request.
        var requestTimeout = Duration.seconds(5)
        /// How long a browser may take to take an answer.
        var sendTimeout = Duration.seconds(30)
        /// How long `/api/state` and `/live.jpg` wait for something new.
        var longPoll = Duration.seconds(20)
        /// How long the camera may take for what a page asks of it.
        var cameraTimeout = Duration.seconds(60)
        /// The largest file the page downloads; larger ones are for `viewfinder camera download`.
        var maximumDownload = 256 << 20
    }

    /// A request the server refuses, with the status and the message to send.
    struct Refusal: Error {
        var status: String
        var message: String
    }

    /// The camera's files as last listed, by the files version of the snapshot they were listed at.
    private struct Listing {
        var filesVersion = -1
        var files: [CameraFileListing.Entry] = []
    }

    let configuration: Configuration
    let camera: RemoteCamera
    let liveView: RemoteLiveView
    private let http: HTTPServer
    private let listing = Locked(Listing())

    /// A server for `camera`; it does not listen until ``start()``.
    init(camera: RemoteCamera, configuration: Configuration = Configuration()) throws {
        self.camera = camera
        self.configuration = configuration
        liveView = RemoteLiveView(camera: camera.camera)
        http = try HTTPServer(name: "remote", configuration: configuration.http)
    }

    /// Starts listening; returns the port.
    @discardableResult
    func start() throws -> UInt16 {
        try http.start { [weak self] connection in self?.serve(connection.socket) }
    }

    /// The address to open, such as `http://127.0.0.1:8080/`.
    var url: String { http.url }

    /// Whether the remote can be reached from other machines.
    var isReachableFromElsewhere: Bool { http.isReachableFromElsewhere }

    /// Stops serving and lets live view go.
    func stop() {
        http.stop()
        liveView.stop()
    }

    // MARK: Requests

    private func serve(_ socket: Socket) {
        let request: HTTPRequest
        do {
            request = try HTTPRequest.read(from: socket, until: .now + configuration.requestTimeout)
        } catch {
            if let status = (error as? HTTPRequest.Failure)?.status {
                try? HTTPResponse.text(status, Self.describe(status)).send(on: socket, until: .now + .seconds(1))
            }
            return
        }
        let response: HTTPResponse
        do {
            try checkOrigin(of: request)
            response = try answer(request)
        } catch let refusal as Refusal {
            response = .text(refusal.status, refusal.message)
        } catch {
            response = Self.failure(error)
        }
        try? response.send(
            on: socket, headOnly: request.method == "HEAD", until: .now + configuration.sendTimeout)
    }

    /// Refuses requests that could come from a page of another site.
    private func checkOrigin(of request: HTTPRequest) throws {
        if !http.isReachableFromElsewhere {
            let host = request.headers["host"].map(Self.hostName) ?? ""
            guard ["127.0.0.1", "localhost", "[::1]"].contains(host) else {
                throw Refusal(status: "421 Misdirected Request", message: "The remote answers 127.0.0.1 only.")
            }
        }
        if request.method == "POST", request.headers["x-viewfinder-remote"] != "1" {
            throw Refusal(
                status: "403 Forbidden", message: "Changes come from the remote's page, with X-Viewfinder-Remote: 1.")
        }
    }

    /// The host of a `Host` field, without its port.
    static func hostName(_ field: String) -> String {
        if field.hasPrefix("["), let close = field.firstIndex(of: "]") {
            return String(field[...close]).lowercased()
        }
        return String(field.prefix { $0 != ":" }).lowercased()
    }

    private func answer(_ request: HTTPRequest) throws -> HTTPResponse {
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
            return HTTPResponse(status: "200 OK", contentType: "text/html; charset=utf-8", body: RemotePage.html)
        case ("live.jpg", 1):
            try allow("GET")
            return try liveFrame(after: Int(request.query["after"] ?? "") ?? 0)
        case ("api", 2) where parts[1] == "state":
            try allow("GET")
            let since = Int(request.query["since"] ?? "") ?? -1
            return .json(camera.snapshot(newerThan: since, until: .now + configuration.longPoll))
        case ("api", 2) where parts[1] == "files":
            try allow("GET")
            return .json(try files().reversed().map(\.record))
        case ("api", 2) where parts[1] == "shutter":
            try allow("POST")
            let focus = request.formFields["af"] == "1"
            try perform { camera in try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(focus) }
            return .json(camera.current)
        case ("api", 2) where parts[1] == "recording":
            try allow("POST")
            switch request.formFields["action"] {
            case "start": try perform { try await $0.startVideoRecording() }
            case "stop": try perform { try await $0.stopVideoRecording() }
            default: throw Refusal(status: "400 Bad Request", message: "The field 'action' is start or stop.")
            }
            camera.refresh()
            return .json(camera.current)
        case ("api", 3) where parts[1] == "properties":
            try allow("POST")
            return try setProperty(parts[2], to: request.formFields["value"])
        case ("files", 2):
            try allow("GET")
            return try download(try file(parts[1]))
        case ("files", 3) where parts[2] == "thumbnail.jpg":
            try allow("GET")
            let item = try file(parts[1])
            let jpeg = try perform { camera in try await CameraFileListing.fileAccess(of: camera).thumbnail(of: item) }
            return HTTPResponse(status: "200 OK", contentType: "image/jpeg", body: jpeg)
        default:
            throw Refusal(status: "404 Not Found", message: "There is nothing at \(request.path); try /.")
        }
    }

    private func liveFrame(after number: Int) throws -> HTTPResponse {
        guard let frame = try liveView.frame(after: number, until: .now + configuration.longPoll) else {
            throw Refusal(status: "504 Gateway Timeout", message: "The camera sent no live view frame in time.")
        }
        var response = HTTPResponse(status: "200 OK", contentType: "image/jpeg", body: frame.jpeg)
        response.headers = [("X-Frame-Number", "\(frame.number)")]
        return response
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

    // MARK: Files

    /// The card's files, listed again when the snapshot says files were added.
    private func files() throws -> [CameraFileListing.Entry] {
        let version = camera.current.filesVersion
        if let cached = listing.withLock({ $0.filesVersion == version ? $0.files : nil }) {
            return cached
        }
        let files = try perform { camera in try await CameraFileListing(of: camera).files }
        listing.withLock { $0 = Listing(filesVersion: version, files: files) }
        return files
    }

    private func file(_ handleText: String) throws -> CameraFileItem {
        guard let handle = UInt32(handleText) else {
            throw Refusal(status: "400 Bad Request", message: "A file is named by its number, not '\(handleText)'.")
        }
        guard let entry = try files().first(where: { $0.item.id == handle }) else {
            throw Refusal(status: "404 Not Found", message: "The camera has no file \(handle).")
        }
        return entry.item
    }

    private func download(_ item: CameraFileItem) throws -> HTTPResponse {
        let limit = configuration.maximumDownload
        guard !item.isByteCountKnown || item.byteCount <= UInt64(limit) else {
            throw Refusal(
                status: "413 Content Too Large",
                message:
                    "\(item.name) is larger than \(limit >> 20) MiB; download it with 'viewfinder camera download'.")
        }
        let bytes = try perform { camera in
            try await CameraFileListing.fileAccess(of: camera).downloadData(of: item, maximumByteCount: limit)
        }
        let name = CameraDownload.isPlainFileName(item.name) ? item.name : "file-\(item.id)"
        var response = HTTPResponse(status: "200 OK", contentType: Self.mediaType(of: name), body: bytes)
        response.headers = [("Content-Disposition", "attachment; filename=\"\(name)\"")]
        return response
    }

    /// The media type of a camera file, by its extension.
    static func mediaType(of name: String) -> String {
        switch name.split(separator: ".").last?.lowercased() {
        case "jpg", "jpeg": "image/jpeg"
        case "mov": "video/quicktime"
        case "mp4": "video/mp4"
        default: "application/octet-stream"
        }
    }

    // MARK: Camera calls

    /// Runs a call to the camera from a connection's thread, waiting for it at most the camera timeout.
    private func perform<Result: Sendable>(
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

    /// A sentence for a status the server sends without a handler's message.
    static func describe(_ status: String) -> String {
        switch status {
        case "431 Request Header Fields Too Large":
            "The request's head is longer than \(HTTPRequest.maximumHeadSize) bytes."
        case "413 Content Too Large": "The request's body is longer than \(HTTPRequest.maximumBodySize) bytes."
        case "411 Length Required": "Send the body with Content-Length."
        case "408 Request Timeout": "The request did not arrive in time."
        default: "The request is not HTTP/1.1."
        }
    }
}
