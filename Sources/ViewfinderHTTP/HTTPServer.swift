import Dispatch
import Foundation
import Viewfinder
import ViewfinderSystem

/// A small HTTP/1.1 server for the tool's pages: one request per connection, each connection on a thread of its own.
///
/// At most ``Configuration/maximumConnections`` are served at once; the server answers more with `503` from a
/// thread of its own, a few at a time, so the accept loop never waits on a client. When the process runs out of
/// descriptors, the accept loop waits for connections to close instead of spinning. Every wait has a deadline, and
/// ``stop()`` ends every connection.
///
/// ```swift
/// let server = try HTTPServer(name: "remote")
/// try server.start { connection in
///     _ = try? HTTPRequest.read(from: connection.socket, until: .now + .seconds(5))
///     try? HTTPResponse.text("200 OK", "hello").send(on: connection.socket, until: .now + .seconds(5))
/// }
/// print(server.url)
/// ```
final class HTTPServer: Sendable {
    /// Where the server listens and how it bounds its work.
    struct Configuration: Sendable {
        /// The numeric address to listen on; loopback unless the pages should be seen from elsewhere.
        var bindAddress = "127.0.0.1"
        /// The port to listen on; 0 lets the system pick a free one.
        var port: UInt16 = 0
        /// How many connections may be open at once, streams and waiting requests included.
        var maximumConnections = 8
    }

    /// One connection being served.
    struct Connection: Sendable {
        /// The connection's socket; the server closes it once the handler returns.
        let socket: Socket
        /// A number that tells the connection from the others.
        let id: Int
    }

    private struct State {
        var listener: Socket?
        var port: UInt16 = 0
        var connections: [Int: Socket] = [:]
        /// Over-cap connections waiting for their `503`.
        var refusals = 0
        var nextID = 1
        var stopping = false
        var acceptThread: PlatformThread?
        var handler: (@Sendable (Connection) -> Void)?
    }

    /// Where the server listens and how it bounds its work.
    let configuration: Configuration
    /// The name of the server's threads and the page in messages, such as `preview`.
    let name: String
    private let state = Locked(State())
    private let stopWakeup: Wakeup
    /// Wakes the accept loop when a connection closes, which frees a descriptor after the process ran out.
    private let closedWakeup: Wakeup
    private let connectionThreads = DispatchGroup()
    /// Answers over-cap connections with `503`, off the accept thread.
    private let refuser: IOThread
    /// The most over-cap connections waiting for an answer; more are closed at once.
    static let maximumRefusals = 16

    /// Creates a server named `name`; it does not listen until ``start(handling:)``.
    init(name: String, configuration: Configuration = Configuration()) throws {
        self.name = name
        self.configuration = configuration
        stopWakeup = try Wakeup()
        closedWakeup = try Wakeup()
        refuser = try IOThread(name: "\(name)-refuse")
    }

    deinit {
        refuser.stop()
    }

    /// Starts listening and hands each connection to `handler`, on the connection's own thread; returns the port.
    ///
    /// - Throws: A `ViewfinderError` when the address cannot be bound, saying what to try.
    @discardableResult
    func start(handling handler: @escaping @Sendable (Connection) -> Void) throws -> UInt16 {
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
            let thread = try PlatformThread(name: "\(name)-accept") { [self] in acceptConnections(on: listener) }
            state.withLock { state in
                state.listener = listener
                state.port = port
                state.acceptThread = thread
                state.handler = handler
            }
        } catch {
            listener.close()
            throw CommandFailure("cannot start the \(name) server: \(error)")
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

    /// Whether the server listens beyond this machine.
    var isReachableFromElsewhere: Bool {
        !["127.0.0.1", "::1", "localhost"].contains(configuration.bindAddress)
    }

    /// Whether ``stop()`` was called; handlers that wait check it.
    var isStopping: Bool { state.withLock { $0.stopping } }

    /// How many connections are open now.
    var connectionCount: Int { state.withLock { $0.connections.count } }

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
            case serve(Int, @Sendable (Connection) -> Void)
            case refuse, drop
        }
        let admission: Admission = state.withLock { state in
            if !state.stopping, state.connections.count < configuration.maximumConnections,
                let handler = state.handler
            {
                defer { state.nextID += 1 }
                state.connections[state.nextID] = socket
                return .serve(state.nextID, handler)
            }
            guard !state.stopping, state.refusals < Self.maximumRefusals else { return .drop }
            state.refusals += 1
            return .refuse
        }
        switch admission {
        case .serve(let id, let handler):
            connectionThreads.enter()
            do {
                try PlatformThread.detach(name: "\(name)-client") { [self] in
                    handler(Connection(socket: socket, id: id))
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

    /// Answers a connection over the cap with `503`, reading its request first: closing a socket with unread data
    /// resets the connection, and the browser would lose the answer.
    private func refuse(_ socket: Socket) {
        _ = try? HTTPRequest.read(from: socket, until: .now + .milliseconds(200))
        let message = "The \(name) serves \(configuration.maximumConnections) connections at most; close one."
        try? HTTPResponse.text("503 Service Unavailable", message).send(on: socket, until: .now + .milliseconds(100))
        socket.close()
    }

    /// How long a finished connection is read and dropped before it closes, at most.
    static let lingerTime = Duration.milliseconds(500)

    private func finish(_ socket: Socket, id: Int) {
        state.withLock { $0.connections[id] = nil }
        linger(on: socket)
        socket.close()
        closedWakeup.signal()
        connectionThreads.leave()
    }
}
