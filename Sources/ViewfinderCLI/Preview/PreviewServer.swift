import Dispatch
import Foundation
import Viewfinder
import ViewfinderSystem

/// A small HTTP server that shows a ``PreviewFeed`` in a browser.
///
/// It serves a page (`/`) that shows the live frames with their frame rate and count, the frames as Motion JPEG
/// (`/stream.mjpeg`), the newest frame as an image (`/snapshot.jpg`) and figures as JSON (`/stats`). Each
/// connection has its own thread; at most ``Configuration/maximumConnections`` are open at once, and the server
/// answers more with `503` from a thread of its own, a few at a time, so the accept loop never waits on a client.
/// When the process runs out of descriptors, the accept loop waits for connections to close instead of spinning.
/// Every wait has a deadline, and ``stop()`` ends every connection.
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
        /// The numeric address to listen on; loopback unless the preview should be seen from elsewhere.
        var bindAddress = "127.0.0.1"
        /// The port to listen on; 0 lets the system pick a free one.
        var port: UInt16 = 0
        /// How many connections may be open at once, streams included.
        var maximumConnections = 8
        /// How long a browser may take to send its request.
        var requestTimeout = Duration.seconds(5)
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
        var listener: Socket?
        var port: UInt16 = 0
        var connections: [Int: Socket] = [:]
        /// Over-cap connections waiting for their `503`.
        var refusals = 0
        var viewers: [Int: Viewer] = [:]
        var nextID = 1
        var stopping = false
        var acceptThread: PlatformThread?
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
    private let stopWakeup: Wakeup
    /// Wakes the accept loop when a connection closes, which frees a descriptor after the process ran out.
    private let closedWakeup: Wakeup
    private let connectionThreads = DispatchGroup()
    /// Answers over-cap connections with `503`, off the accept thread.
    private let refuser: IOThread
    /// The most over-cap connections waiting for an answer; more are closed at once.
    static let maximumRefusals = 16
    /// When the server was created.
    let startTime = MonotonicTimestamp.now()

    /// Creates a server; it does not listen until ``start()``.
    init(feed: PreviewFeed, title: String, format: String, configuration: Configuration = Configuration()) throws {
        self.feed = feed
        self.title = title
        self.format = format
        self.configuration = configuration
        stopWakeup = try Wakeup()
        closedWakeup = try Wakeup()
        refuser = try IOThread(name: "preview-refuse")
    }

    deinit {
        refuser.stop()
    }

    /// Starts listening and serving; returns the port.
    ///
    /// - Throws: A `ViewfinderError` when the address cannot be bound, saying what to try.
    @discardableResult
    func start() throws -> UInt16 {
        let listener: Socket
        do {
            listener = try Socket.listen(host: configuration.bindAddress, port: configuration.port)
        } catch {
            let failure = ViewfinderError(error)
            if case .system(let errno) = error.reason, errno.rawValue == EADDRINUSE {
                throw ViewfinderError(
                    failure.code, failure.message + " with --port, or leave --port out", errno: failure.errno)
            }
            throw failure
        }
        let port = listener.localPort
        do {
            let thread = try PlatformThread(name: "preview-accept") { [self] in acceptConnections(on: listener) }
            state.withLock { state in
                state.listener = listener
                state.port = port
                state.acceptThread = thread
            }
        } catch {
            listener.close()
            throw CommandFailure("cannot start the preview server: \(error)")
        }
        return port
    }

    /// The address a browser on this machine opens, such as `http://127.0.0.1:8080/`.
    var url: String {
        let port = state.withLock { $0.port }
        let host =
            switch configuration.bindAddress {
            case "0.0.0.0": "127.0.0.1"
            case "::": "[::1]"
            case let address where address.contains(":"): "[\(address)]"
            case let address: address
            }
        return "http://\(host):\(port)/"
    }

    /// How many streams were opened and how many frames they sent, so far.
    var served: (streams: Int, frames: Int) {
        state.withLock { ($0.streamsServed, $0.framesServed) }
    }

    /// Stops listening, ends every connection and waits (at most a few seconds) for their threads to finish.
    func stop() {
        let (thread, listener) = state.withLock { state in
            state.stopping = true
            // Shut down under the lock: a connection closes its socket only after leaving `connections`.
            for socket in state.connections.values { socket.shutdown() }
            defer { state.acceptThread = nil }
            return (state.acceptThread, state.listener)
        }
        stopWakeup.signal()
        thread?.join()
        listener?.close()
        _ = connectionThreads.wait(timeout: .now() + .seconds(3))
    }

    private var isStopping: Bool { state.withLock { $0.stopping } }

    /// Calls `body` with the number of open connections and the open streams, keyed by connection, under the lock.
    func withViewers<Result>(_ body: (Int, [Int: Viewer]) -> Result) -> Result {
        state.withLock { body($0.connections.count, $0.viewers) }
    }

    private func acceptConnections(on listener: Socket) {
        let requests: [Poll.Request] = [
            .init(listener.descriptor, for: Poll.readable), .init(stopWakeup.descriptor, for: Poll.readable),
        ]
        while !isStopping {
            guard (try? Poll.wait(requests, until: .now + .seconds(1))) != nil else { return }
            do {
                while let socket = try listener.acceptNow() {
                    admit(socket)
                }
            } catch {
                // Out of descriptors (EMFILE, ENFILE) or another failure to accept: the connection stays waiting,
                // so wait for a connection to close (or a moment) rather than try again at once.
                closedWakeup.drain()
                _ = try? Poll.wait(
                    [
                        .init(closedWakeup.descriptor, for: Poll.readable),
                        .init(stopWakeup.descriptor, for: Poll.readable),
                    ],
                    until: .now + .milliseconds(250))
            }
        }
    }

    /// Serves a new connection on a thread of its own, or has it answered `503` when there are too many.
    private func admit(_ socket: Socket) {
        enum Admission {
            case serve(Int)
            case refuse, drop
        }
        let admission: Admission = state.withLock { state in
            if !state.stopping, state.connections.count < configuration.maximumConnections {
                defer { state.nextID += 1 }
                state.connections[state.nextID] = socket
                return .serve(state.nextID)
            }
            guard !state.stopping, state.refusals < Self.maximumRefusals else { return .drop }
            state.refusals += 1
            return .refuse
        }
        switch admission {
        case .serve(let id):
            connectionThreads.enter()
            do {
                try PlatformThread.detach(name: "preview-client") { [self] in
                    serve(socket, id: id)
                    finish(socket, id: id)
                }
            } catch {
                finish(socket, id: id)
            }
        case .refuse:
            let accepted = refuser.submit { [self] in
                refuse(socket)
                state.withLock { $0.refusals -= 1 }
            }
            if !accepted {
                socket.close()
                state.withLock { $0.refusals -= 1 }
            }
        case .drop:
            socket.close()
        }
    }

    /// Answers a connection over the cap with `503`, reading its request first: closing a socket with unread data
    /// resets the connection, and the browser would lose the answer.
    private func refuse(_ socket: Socket) {
        _ = try? HTTPRequest.read(from: socket, until: .now + .milliseconds(200))
        let message = "The preview serves \(configuration.maximumConnections) connections at most; close one."
        try? HTTPResponse.text("503 Service Unavailable", message).send(on: socket, until: .now + .milliseconds(100))
        socket.close()
    }

    private func finish(_ socket: Socket, id: Int) {
        state.withLock { state in
            state.connections[id] = nil
            state.viewers[id] = nil
        }
        socket.close()
        closedWakeup.signal()
        connectionThreads.leave()
    }

    /// Reads one request and answers it.
    private func serve(_ socket: Socket, id: Int) {
        let request: HTTPRequest
        do {
            request = try HTTPRequest.read(from: socket, until: .now + configuration.requestTimeout)
        } catch {
            if let status = (error as? HTTPRequest.Failure)?.status {
                try? HTTPResponse.text(status, "").send(on: socket, until: .now + .seconds(1))
            }
            return
        }
        let headOnly = request.method == "HEAD"
        guard request.method == "GET" || headOnly else {
            respond(.text("405 Method Not Allowed", "The preview answers GET and HEAD."), on: socket)
            return
        }
        switch request.path {
        case "/", "/index.html":
            let page = PreviewPage.html(title: title, format: format)
            respond(
                HTTPResponse(status: "200 OK", contentType: "text/html; charset=utf-8", body: page), on: socket,
                headOnly)
        case "/stream.mjpeg":
            stream(to: socket, id: id, viewer: request.query["viewer"], headOnly: headOnly)
        case "/snapshot.jpg":
            respond(snapshot(), on: socket, headOnly)
        case "/stats":
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let body = (try? encoder.encode(statistics)).map(Array.init) ?? []
            respond(HTTPResponse(status: "200 OK", contentType: "application/json", body: body), on: socket, headOnly)
        default:
            respond(.text("404 Not Found", "Try / for the preview page."), on: socket, headOnly)
        }
    }

    private func respond(_ response: HTTPResponse, on socket: Socket, _ headOnly: Bool = false) {
        try? response.send(on: socket, headOnly: headOnly, until: .now + configuration.sendTimeout)
    }

    private func stream(to socket: Socket, id: Int, viewer: String?, headOnly: Bool) {
        socket.setOption(SO_SNDBUF, to: configuration.streamSendBuffer)
        let name = Self.viewerName(viewer) ?? "viewer-\(id)"
        state.withLock { state in
            state.viewers[id] = Viewer(name: name)
            state.streamsServed += 1
        }
        let stream = MJPEGStream(socket: socket, feed: feed, sendTimeout: configuration.sendTimeout)
        let sent = { (_: UInt64, skipped: UInt64, bytes: Int) in
            self.state.withLock { state in
                state.framesServed += 1
                state.viewers[id]?.framesSent += 1
                state.viewers[id]?.framesSkipped += skipped
                state.viewers[id]?.bytesSent += bytes
                state.viewers[id]?.meter.record()
            }
        }
        try? stream.run(headOnly: headOnly, isStopping: { isStopping }, sent: sent)
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
