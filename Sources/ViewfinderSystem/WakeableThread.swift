import Synchronization

/// A dedicated POSIX thread for a blocking loop (a capture loop or a device watcher), and a pipe that wakes it.
///
/// Blocking loops get their own thread rather than a Dispatch worker, so a device that stalls never starves the
/// shared pool. The loop waits in `poll(2)` on its own descriptors plus the descriptor of the wake-up it is given;
/// ``wake()`` makes that descriptor readable so the loop can notice a stop request and return.
package final class WakeableThread: Sendable {
    private let wakeup: Wakeup
    private let thread: PlatformThread
    private let stopped = Atomic(false)

    /// Starts a thread named `name` running `body`, which receives the wake-up whose descriptor it includes in its
    /// polls.
    ///
    /// - Throws: The `errno` of `pipe2(2)` or of `pthread_create(3)`.
    package init(name: String, body: @escaping @Sendable (_ wakeup: Wakeup) -> Void) throws(Errno) {
        let wakeup = try Wakeup()
        do {
            thread = try PlatformThread(name: name) { body(wakeup) }
        } catch {
            throw Errno(rawValue: error.errno)
        }
        self.wakeup = wakeup
    }

    /// Whether the caller is running on this thread.
    package var isCurrent: Bool { thread.isCurrent }

    /// Makes the wake descriptor readable; the loop sees it at its next `poll(2)`.
    package func wake() {
        wakeup.signal()
    }

    /// Wakes the loop and waits for the thread to return; from the thread itself it only wakes the loop.
    ///
    /// Only the first call does anything: a thread is joined or detached once.
    package func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
        if isCurrent {
            thread.detach()
        } else {
            thread.join()
        }
    }
}
