import ViewfinderCore
import ViewfinderSystem

/// A thread that runs a searcher's or an announcer's loop over the sockets it owns, until stopped.
///
/// The loop checks ``isStopping`` at least every tenth of a second; ``stop(beforeClosing:)`` waits for it to end,
/// then closes the sockets.
final class SocketLoop: Sendable {
    private let thread: Locked<PlatformThread?> = Locked(nil)
    private let stopping = Locked(false)
    private let sockets: [Socket]

    /// Whether the loop should end.
    var isStopping: Bool { stopping.withLock { $0 } }

    /// Starts `body` on a thread named `name`; the sockets are closed when it cannot start.
    init(name: String, sockets: [Socket], _ body: @escaping @Sendable (SocketLoop) -> Void) throws(ViewfinderError) {
        self.sockets = sockets
        do {
            let started = try PlatformThread(name: name) { [self] in body(self) }
            thread.withLock { $0 = started }
        } catch {
            for socket in sockets { socket.close() }
            throw ViewfinderError(.io, "cannot start \(name): \(error)")
        }
    }

    /// Ends the loop and waits for it, runs `last` (a goodbye on the sockets), then closes the sockets; later calls
    /// do nothing.
    func stop(beforeClosing last: () -> Void = {}) {
        guard
            let running = thread.withLock({ thread in
                defer { thread = nil }
                return thread
            })
        else { return }
        stopping.withLock { $0 = true }
        running.join()
        last()
        for socket in sockets { socket.close() }
    }
}
