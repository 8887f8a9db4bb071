import ViewfinderCore
import ViewfinderSystem

/// A live view an HTTP camera's connection keeps while it runs: closing it releases its socket.
package protocol HTTPCameraLiveView: Sendable {
    /// Closes the live view's socket, once the read under way on the live view thread is done.
    func close()
}

/// What an HTTP camera's connection keeps besides its driver's own state: the thread its exchanges run on one after
/// another, the HTTP connection kept between them, the poll that follows the camera, the error that ended the
/// connection, the live view under way and the thread live view is read on.
///
/// The Lumix and Olympus connections hand their `CameraDriverConnection` lifecycle to it:
///
/// ```swift
/// let link = HTTPCameraLink<LumixLiveView>(
///     thread: try IOThread(name: "lumix-http"), connection: HTTPKeptConnection(host: host, port: 80),
///     pollInterval: .seconds(1), liveViewThreadName: "lumix-liveview")
/// let error = await link.run { try await readSettings() }  // until link.close()
/// ```
package final class HTTPCameraLink<LiveView: HTTPCameraLiveView>: Sendable {
    private struct State {
        /// The error that ended the connection, once it ended.
        var ended: ViewfinderError?
        /// Live view, while it runs.
        var liveView: LiveView?
        /// The thread live view is read on, from its first start until the link closes.
        var liveViewThread: IOThread?
        /// Whether the link has closed, and starts no thread.
        var isClosed = false
    }

    /// The thread the blocking HTTP exchanges run on, one after another.
    package let thread: IOThread
    /// The HTTP connection the exchanges share while the camera keeps it open.
    package let connection: HTTPKeptConnection
    /// Reads the camera for changes while the connection runs.
    package let poll: CameraPoll
    private let liveViewThreadName: String
    private let state = Locked(State())

    /// A link whose exchanges run on `thread` over `connection`, whose poll runs every `pollInterval` and whose live
    /// view is read on a thread named `liveViewThreadName`.
    package init(
        thread: IOThread, connection: HTTPKeptConnection, pollInterval: Duration, liveViewThreadName: String
    ) {
        self.thread = thread
        self.connection = connection
        poll = CameraPoll(every: pollInterval)
        self.liveViewThreadName = liveViewThreadName
    }

    /// The error that ended the connection once the camera went away.
    package var endingError: ViewfinderError? { state.withLock { $0.ended } }

    /// Polls the camera with `body` until the connection closes or a poll fails, and records that failure as the
    /// error that ended the connection.
    package func run(_ body: @escaping @Sendable () async throws -> Void) async -> ViewfinderError? {
        let error = await poll.run(body)
        if let error {
            state.withLock { $0.ended = $0.ended ?? error }
        }
        return error
    }

    /// Stops the poll, live view, the threads and the kept connection.
    package func close() {
        poll.stop()
        let liveViewThread = state.withLock { state in
            state.isClosed = true
            return state.liveViewThread
        }
        // The live view's socket closes on its thread, before the thread stops.
        takeLiveView()?.close()
        liveViewThread?.stop()
        thread.stop()
        connection.close()
    }

    /// The thread live view's socket is read on, started at the first call and kept until the link closes; live
    /// view's publisher runs on it too (`CameraDriverConnection/liveViewExecutor`), so that a frame wakes no other
    /// thread.
    ///
    /// - Throws: `ViewfinderError/Code/notConnected` once the link has closed, `ViewfinderError/Code/io` when no
    ///   thread can be had.
    package func liveViewThread() throws(ViewfinderError) -> IOThread {
        try state.withLock { (state) throws(ViewfinderError) -> IOThread in
            guard !state.isClosed else { throw ViewfinderError(.notConnected, "the camera's connection is closed") }
            if let thread = state.liveViewThread { return thread }
            do {
                let thread = try IOThread(name: liveViewThreadName)
                state.liveViewThread = thread
                return thread
            } catch {
                throw ViewfinderError(.io, "cannot start live view's thread: \(error)")
            }
        }
    }

    /// Records why the connection ended, so calls under way say so, and stops the poll and live view.
    package func connectionEnded(with error: ViewfinderError) {
        state.withLock { $0.ended = $0.ended ?? error }
        poll.stop()
        takeLiveView()?.close()
    }

    /// Runs `start`, which asks the camera to stream to `liveView`, then keeps `liveView` as the one under way and
    /// closes the one it replaces; closes `liveView` instead when `start` fails.
    ///
    /// - Throws: What `start` throws.
    package func start(_ liveView: LiveView, with start: () async throws -> Void) async throws {
        do {
            try await start()
        } catch {
            liveView.close()
            throw error
        }
        let previous = state.withLock { state in
            defer { state.liveView = liveView }
            return state.liveView
        }
        previous?.close()
    }

    /// The live view under way.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` naming `camera` when none runs.
    package func runningLiveView(on camera: @autoclosure () -> String) throws(ViewfinderError) -> LiveView {
        guard let liveView = state.withLock({ $0.liveView }) else {
            throw ViewfinderError(.notAvailable, "live view is not running on \(camera())")
        }
        return liveView
    }

    /// Forgets the live view under way and returns it, for the caller to close.
    package func takeLiveView() -> LiveView? {
        state.withLock { state in
            defer { state.liveView = nil }
            return state.liveView
        }
    }
}
