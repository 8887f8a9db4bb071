import Dispatch
import Foundation
import Viewfinder
import ViewfinderHTTP
import ViewfinderSystem

/// A small HTTP server that shows a ``PreviewFeed`` in a browser.
///
/// It serves a page (`/`) that shows the live frames with their frame rate and count, the frames as Motion JPEG
/// (`/stream.mjpeg`), the newest frame as an image (`/snapshot.jpg`) and figures as JSON (`/stats`), through an
/// ``HTTPServer`` that bounds its connections and keeps its policy: everything but the page needs the token (the
/// page's cookie, or `?token=` for a player), and requests must name this machine. Every wait has a deadline, and
/// ``stop()`` ends every connection.
///
/// ```swift
/// let feed = PreviewFeed(quality: 80)
/// context.addProcessor(feed)                       // the context of any frame source; or feed.publish(jpeg:)
/// let server = try PreviewServer(feed: feed, title: "vivid (/dev/video0)", format: "640x480@25/yuyv")
/// let port = try server.start()
/// await Interrupt.wait()
/// server.stop()
/// ```
final class PreviewServer: Sendable {
    /// Where the server listens and how it bounds its work.
    struct Configuration: Sendable {
        /// The address, port, connection caps and the names the server answers to.
        var http = HTTPServer.Configuration()
        /// How long a browser may take to accept a response or a frame before it is dropped.
        var sendTimeout = Duration.seconds(10)
        /// How long `/snapshot.jpg` waits for a first frame.
        var snapshotTimeout = Duration.seconds(5)
        /// The send buffer of a stream's socket: small, so that a slow viewer holds few frames in flight.
        var streamSendBuffer: Int32 = 256 * 1024
    }

    /// What one open stream has sent, for `/stats`.
    struct Viewer {
        var name: String
        var started = MonotonicTimestamp.now()
        var framesSent = 0
        var framesSkipped: UInt64 = 0
        var bytesSent = 0
        var meter = RateMeter()
    }

    private struct State {
        var viewers: [Int: Viewer] = [:]
        var streamsServed = 0
        var framesServed = 0
    }

    /// The frames the server shows.
    let feed: PreviewFeed
    /// What the page calls the source, such as `vivid (/dev/video0)`.
    let title: String
    /// The source's format, as the page shows it.
    let format: String
    /// Where the server listens and how it bounds its work.
    let configuration: Configuration
    private let state = Locked(State())
    /// The server the preview's pages come from.
    let http: HTTPServer
    /// When the server was created.
    let startTime = MonotonicTimestamp.now()

    /// Creates a server; it does not listen until ``start()``.
    init(feed: PreviewFeed, title: String, format: String, configuration: Configuration = Configuration()) throws {
        self.feed = feed
        self.title = title
        self.format = format
        self.configuration = configuration
        http = try HTTPServer(name: "preview", configuration: configuration.http)
    }

    /// Starts listening and serving; returns the port.
    ///
    /// - Throws: A `ViewfinderError` when the address cannot be bound, saying what to try.
    @discardableResult
    func start() throws -> UInt16 {
        try http.start { [weak self] exchange in self?.serve(exchange) }
    }

    /// The address a browser on this machine opens, with the token, such as `http://127.0.0.1:8080/?token=…`.
    var url: String { http.url }

    /// How many streams were opened and how many frames they sent, so far.
    var served: (streams: Int, frames: Int) {
        state.withLock { ($0.streamsServed, $0.framesServed) }
    }

    /// Stops listening, ends every connection and waits (at most a few seconds) for their threads to finish.
    func stop() {
        http.stop()
    }

    private var isStopping: Bool { http.isStopping }

    /// Calls `body` with the number of open connections and the open streams, keyed by connection, under the lock.
    func withViewers<Result>(_ body: (Int, [Int: Viewer]) -> Result) -> Result {
        let connections = http.connectionCount
        return state.withLock { body(connections, $0.viewers) }
    }

    /// Answers one request.
    private func serve(_ exchange: HTTPExchange) {
        let request = exchange.request
        guard request.method == "GET" || exchange.isHead else {
            respond(.text("405 Method Not Allowed", "The preview answers GET and HEAD."), on: exchange)
            return
        }
        switch request.path {
        case "/", "/index.html":
            let page = PreviewPage.html(title: title, format: format)
            respond(HTTPResponse(status: "200 OK", contentType: "text/html; charset=utf-8", body: page), on: exchange)
        case "/stream.mjpeg":
            stream(to: exchange, viewer: request.query["viewer"])
        case "/snapshot.jpg":
            respond(snapshot(), on: exchange)
        case "/stats":
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let body = (try? encoder.encode(statistics)).map(Array.init) ?? []
            respond(HTTPResponse(status: "200 OK", contentType: "application/json", body: body), on: exchange)
        default:
            respond(.text("404 Not Found", "Try / for the preview page."), on: exchange)
        }
    }

    private func respond(_ response: HTTPResponse, on exchange: HTTPExchange) {
        exchange.respond(response, within: configuration.sendTimeout)
    }

    private func stream(to exchange: HTTPExchange, viewer: String?) {
        let socket = exchange.socket
        let id = exchange.connectionID
        socket.setOption(SO_SNDBUF, to: configuration.streamSendBuffer)
        let name = Self.viewerName(viewer) ?? "viewer-\(id)"
        state.withLock { state in
            state.viewers[id] = Viewer(name: name)
            state.streamsServed += 1
        }
        let stream = MJPEGStream(
            socket: socket, feed: feed, sendTimeout: configuration.sendTimeout,
            head: exchange.head(
                status: "200 OK", contentType: "multipart/x-mixed-replace; boundary=\(MJPEGStream.boundary)",
                length: .untilClosed, headers: [("Pragma", "no-cache")]))
        let sent = { (_: UInt64, skipped: UInt64, bytes: Int) in
            self.state.withLock { state in
                state.framesServed += 1
                state.viewers[id]?.framesSent += 1
                state.viewers[id]?.framesSkipped += skipped
                state.viewers[id]?.bytesSent += bytes
                state.viewers[id]?.meter.record()
            }
        }
        try? stream.run(headOnly: exchange.isHead, isStopping: { isStopping }, sent: sent)
        state.withLock { $0.viewers[id] = nil }
    }

    /// A viewer's name from the page, kept only when it is short and plain.
    private static func viewerName(_ text: String?) -> String? {
        guard let text, (1...40).contains(text.count),
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return nil }
        return text
    }

    /// The newest frame, waiting a little for the first one.
    private func snapshot() -> HTTPResponse {
        if let (_, jpeg) = feed.jpeg(newerThan: 0) {
            return HTTPResponse(status: "200 OK", contentType: "image/jpeg", body: jpeg)
        }
        let deadline = ContinuousClock.now + configuration.snapshotTimeout
        if let wakeup = try? Wakeup() {
            feed.addWaiter(wakeup)
            defer { feed.removeWaiter(wakeup) }
            while ContinuousClock.now < deadline && !isStopping {
                if let (_, jpeg) = feed.jpeg(newerThan: 0) {
                    return HTTPResponse(status: "200 OK", contentType: "image/jpeg", body: jpeg)
                }
                _ = try? Poll.wait(wakeup.descriptor, for: Poll.readable, until: min(deadline, .now + .seconds(1)))
                wakeup.drain()
            }
        }
        let reason = feed.statistics.failure.map { "The source failed: \($0)" } ?? "No frame arrived yet; try again."
        return .text("503 Service Unavailable", reason)
    }
}
