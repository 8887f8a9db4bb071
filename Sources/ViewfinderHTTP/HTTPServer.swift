import Dispatch
import ViewfinderCore
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// The HTTP/1.1 server the tool's pages share: one request per connection, each connection on a thread of its own,
/// and one policy for every server and every route (``HTTPAccess``: the request's host, the token, the origin of
/// changes).
///
/// At most ``Configuration/maximumConnections`` are served at once, and one peer (one address) holds at most
/// ``Configuration/connectionsPerPeer`` of them, so a client that opens many connections and sends nothing leaves
/// room for others. A request must arrive whole within ``Configuration/requestTimeout``, however slowly its bytes
/// come. The server answers connections over a cap with `503` from a thread of its own, a few at a time, so the
/// accept loop never waits on a client; when the process runs out of descriptors, the accept loop waits for
/// connections to close instead of spinning. Every wait has a deadline, and ``stop()`` ends every connection.
///
/// ```swift
/// let server = try HTTPServer(name: "remote")
/// try server.start { exchange in
///     exchange.respond(.text("200 OK", "hello"), within: .seconds(5))
/// }
/// print(server.url)   // http://127.0.0.1:PORT/?token=…
/// ```
package final class HTTPServer: Sendable {
    /// Where the server listens, who it answers and how it bounds its work.
    package struct Configuration: Sendable {
        /// The numeric address to listen on; loopback unless the pages should be seen from elsewhere.
        package var bindAddress = "127.0.0.1"
        /// The port to listen on; 0 lets the system pick a free one.
        package var port: UInt16 = 0
        /// How many connections may be open at once, streams and waiting requests included.
        package var maximumConnections = 8
        /// How long a client may take to send its whole request.
        package var requestTimeout = Duration.seconds(5)
        /// The longest request body taken.
        package var maximumBodySize = HTTPRequest.maximumBodySize
        /// Host names to answer besides this machine's addresses, such as a name in DNS for this machine.
        package var allowedHosts: [String] = []
        /// The paths served without the token: the page.
        package var openPaths: Set<String> = ["/", "/index.html"]

        /// A configuration for loopback, on a free port.
        package init() {}

        /// How many connections one peer may hold: all but a quarter of them (at least one).
        package var connectionsPerPeer: Int { max(1, maximumConnections - max(1, maximumConnections / 4)) }
    }

    private struct State {
        var listener: Socket?
        var port: UInt16 = 0
        var access: HTTPAccess?
        var connections: [Int: (socket: Socket, peer: String)] = [:]
        var connectionsByPeer: [String: Int] = [:]
        /// Over-cap connections waiting for their `503`.
        var refusals = 0
        var nextID = 1
        var stopping = false
        var acceptThread: WakeableThread?
        var handler: (@Sendable (HTTPExchange) -> Void)?
    }

    /// Where the server listens, who it answers and how it bounds its work.
    package let configuration: Configuration
    /// The name of the server's threads and the page in messages, such as `preview`.
    package let name: String
    /// The token every request but the page's needs.
    package let token: String
    private let state = Locked(State())
    /// Wakes the accept loop when a connection closes, which frees a descriptor after the process ran out.
    private let closedWakeup: Wakeup
    private let connectionThreads = DispatchGroup()
    /// Answers over-cap connections with `503`, off the accept thread.
    private let refuser: IOThread
    /// The most over-cap connections waiting for an answer; more are closed at once.
    static let maximumRefusals = 16

    /// Creates a server named `name` with a new token; it does not listen until ``start(handling:)``.
    package init(name: String, configuration: Configuration = Configuration()) throws {
        self.name = name
        self.configuration = configuration
        token = HTTPAccess.makeToken()
        closedWakeup = try Wakeup()
        refuser = try IOThread(name: "\(name)-refuse")
    }

    deinit {
        refuser.stop()
    }

    /// Starts listening and hands each request the policy lets through to `handler`, on its connection's own
    /// thread; returns the port.
    ///
    /// - Throws: A `ViewfinderError` when the address cannot be bound, saying what to try.
    @discardableResult
    package func start(handling handler: @escaping @Sendable (HTTPExchange) -> Void) throws -> UInt16 {
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
        let access = HTTPAccess(
            token: token, name: name, port: port, openPaths: configuration.openPaths,
            allowedHosts: configuration.allowedHosts)
        do {
            let thread = try WakeableThread(name: "\(name)-accept") { [self] stop in
                acceptConnections(on: listener, until: stop)
            }
            state.withLock { state in
                state.listener = listener
                state.port = port
                state.access = access
                state.acceptThread = thread
                state.handler = handler
            }
        } catch {
            listener.close()
            throw ViewfinderError(.io, "cannot start the \(name) server: \(error)")
        }
        return port
    }

    /// The address a browser on this machine opens, with the token, such as `http://127.0.0.1:8080/?token=…`.
    package var url: String { url(for: "/") }

    /// The address of `path` on this machine, with the token, such as `http://127.0.0.1:8080/stats?token=…`.
    package func url(for path: String) -> String {
        "http://\(Self.urlHost(configuration.bindAddress)):\(port)\(path)?token=\(token)"
    }

    /// The port the server listens on, once started.
    package var port: UInt16 { state.withLock { $0.port } }

    /// How an address appears in a URL: a wildcard as loopback, an IPv6 address in brackets.
    package static func urlHost(_ address: String) -> String {
        switch address {
        case "0.0.0.0": "127.0.0.1"
        case "::": "[::1]"
        case let address: HostPort.bracketed(address)
        }
    }

    /// Whether the server listens beyond this machine.
    package var isReachableFromElsewhere: Bool {
        !["127.0.0.1", "::1", "localhost"].contains(configuration.bindAddress)
    }

    /// Whether ``stop()`` was called; handlers that wait check it.
    package var isStopping: Bool { state.withLock { $0.stopping } }

    /// How many connections are open now.
    package var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Stops listening, ends every connection and waits (at most a few seconds) for their threads to finish.
    package func stop() {
        let (thread, listener) = state.withLock { state in
            state.stopping = true
            // Shut down under the lock: a connection closes its socket only after leaving `connections`.
            for connection in state.connections.values { connection.socket.shutdown() }
            defer { state.acceptThread = nil }
            return (state.acceptThread, state.listener)
        }
        thread?.stop()
        listener?.close()
        _ = connectionThreads.wait(timeout: .now() + .seconds(3))
    }

    /// Admits connections until the server stops; `stop` is the accept thread's wake-up, which ``stop()`` signals.
    private func acceptConnections(on listener: Socket, until stop: Wakeup) {
        let requests: [Poll.Request] = [
            .init(listener.descriptor, for: Poll.readable), .init(stop.descriptor, for: Poll.readable),
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
                        .init(stop.descriptor, for: Poll.readable),
                    ],
                    until: .now + .milliseconds(250))
            }
        }
    }

    /// The address of a connection's peer, from its endpoint (`host:port` or `[host]:port`).
    static func peer(of socket: Socket) -> String {
        guard let colon = socket.endpoint.lastIndex(of: ":") else { return socket.endpoint }
        let host = socket.endpoint[..<colon]
        return String(host.hasPrefix("[") && host.hasSuffix("]") ? host.dropFirst().dropLast() : host)
    }

    /// Serves a new connection on a thread of its own, or has it answered `503` when there are too many.
    private func admit(_ socket: Socket) {
        enum Admission {
            case serve(Int, HTTPAccess, @Sendable (HTTPExchange) -> Void)
            case refuse(String)
            case drop
        }
        let peer = Self.peer(of: socket)
        let perPeer = configuration.connectionsPerPeer
        let admission: Admission = state.withLock { state in
            guard !state.stopping, let handler = state.handler, let access = state.access else { return .drop }
            let held = state.connectionsByPeer[peer, default: 0]
            if state.connections.count < configuration.maximumConnections, held < perPeer {
                defer { state.nextID += 1 }
                state.connections[state.nextID] = (socket, peer)
                state.connectionsByPeer[peer] = held + 1
                return .serve(state.nextID, access, handler)
            }
            guard state.refusals < Self.maximumRefusals else { return .drop }
            state.refusals += 1
            return .refuse(
                held >= perPeer
                    ? "The \(name) serves \(perPeer) connections at most to one address, and \(peer) has them open; "
                        + "close one."
                    : "The \(name) serves \(configuration.maximumConnections) connections at most; close one.")
        }
        switch admission {
        case .serve(let id, let access, let handler):
            connectionThreads.enter()
            do {
                try PlatformThread.detach(name: "\(name)-client") { [self] in
                    serve(socket, id: id, access: access, handler: handler)
                    finish(socket, id: id, peer: peer)
                }
            } catch {
                finish(socket, id: id, peer: peer)
            }
        case .refuse(let message):
            let accepted = refuser.submit { [self] in
                refuse(socket, saying: message)
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

    /// Reads the connection's request, applies the policy, and hands the request to `handler` if it lets it
    /// through; answers otherwise.
    private func serve(
        _ socket: Socket, id: Int, access: HTTPAccess, handler: @Sendable (HTTPExchange) -> Void
    ) {
        let request: HTTPRequest
        do {
            request = try HTTPRequest.read(
                from: socket, until: .now + configuration.requestTimeout,
                maximumBodySize: configuration.maximumBodySize)
        } catch {
            if let status = error.status {
                try? HTTPResponse.text(status, error.message(maximumBodySize: configuration.maximumBodySize)).send(
                    on: socket, extraHeaders: HTTPAccess.protectingHeaders, until: .now + .seconds(1))
            }
            return
        }
        switch access.decide(request, localAddress: socket.localAddress.host, bindAddress: configuration.bindAddress) {
        case .refuse(let response):
            try? response.send(
                on: socket, headOnly: request.method == "HEAD", extraHeaders: HTTPAccess.protectingHeaders,
                until: .now + .seconds(1))
        case .serve(let cookie):
            let headers = HTTPAccess.protectingHeaders + (cookie.map { [("Set-Cookie", $0)] } ?? [])
            handler(HTTPExchange(request: request, socket: socket, connectionID: id, headers: headers))
        }
    }

    /// Ends the answer and reads what the client still sends, briefly: closing a socket with unread data (the rest
    /// of a request head too long to read) resets the connection, and the client would lose the answer.
    private func linger(on socket: Socket) {
        socket.shutdownSending()
        var scratch = [UInt8](repeating: 0, count: 16384)
        let deadline = ContinuousClock.now + Self.lingerTime
        var drained = 0
        while drained < 1 << 20, ContinuousClock.now < deadline {
            let count = scratch.withUnsafeMutableBytes { buffer in
                try? socket.receive(into: buffer, timeout: ContinuousClock.now.duration(to: deadline), while: "closing")
            }
            guard let count, count > 0 else { return }
            drained += count
        }
    }

    /// Answers a connection over a cap with `503`, reading its request first: closing a socket with unread data
    /// resets the connection, and the browser would lose the answer.
    private func refuse(_ socket: Socket, saying message: String) {
        _ = try? HTTPRequest.read(from: socket, until: .now + .milliseconds(200))
        try? HTTPResponse.text("503 Service Unavailable", message).send(
            on: socket, extraHeaders: HTTPAccess.protectingHeaders, until: .now + .milliseconds(100))
        socket.close()
    }

    /// How long a finished connection is read and dropped before it closes, at most.
    static let lingerTime = Duration.milliseconds(500)

    private func finish(_ socket: Socket, id: Int, peer: String) {
        state.withLock { state in
            state.connections[id] = nil
            let held = state.connectionsByPeer[peer, default: 1] - 1
            state.connectionsByPeer[peer] = held > 0 ? held : nil
        }
        linger(on: socket)
        socket.close()
        closedWakeup.signal()
        connectionThreads.leave()
    }
}
