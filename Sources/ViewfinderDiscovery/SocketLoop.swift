import ViewfinderCore
import ViewfinderSystem

/// A searcher's or an announcer's loop over the sockets it owns, on a thread of its own, until stopped.
///
/// The loop checks ``isStopping`` at least every tenth of a second; ``stop(beforeClosing:)`` waits for it to end,
/// then closes the sockets. The thread is a `WakeableThread`, so a loop that stops itself is not joined by itself.
final class SocketLoop: Sendable {
    private let thread: Locked<WakeableThread?> = Locked(nil)
    private let stopping = Locked(false)
    private let sockets: [Socket]

    /// Whether the loop should end.
    var isStopping: Bool { stopping.withLock { $0 } }

    /// Starts `body` on a thread named `name`; the sockets are closed when it cannot start.
    init(name: String, sockets: [Socket], _ body: @escaping @Sendable (SocketLoop) -> Void) throws(ViewfinderError) {
        self.sockets = sockets
        do {
            let started = try WakeableThread(name: name) { [self] _ in body(self) }
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
        running.stop()
        last()
        for socket in sockets { socket.close() }
    }
}
