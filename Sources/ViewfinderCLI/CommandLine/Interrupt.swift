import CViewfinderSystem
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (SIGINT) and SIGTERM, so long-running commands can stop cleanly.
///
/// Once ``install()`` has run, a signal resumes every task in ``wait()``. With nobody waiting and no command that
/// called ``beginHandling()``, or at a second signal, the tool exits at once with status 130. The signal handler only writes to a pipe that a thread of its own reads, so
/// it does not matter which thread the kernel picks to run it.
enum Interrupt {
    /// Whether the command handles signals, and whether one came.
    private struct State {
        var handling = false
        var interrupted = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private static let state = Locked(State())

    /// Catches SIGINT and SIGTERM from now on; the tool calls it before it runs a command.
    static func install() {
        let descriptor = viewfinder_interrupt_descriptor()
        guard descriptor >= 0 else { return }
        try? PlatformThread.detach(name: "interrupt") {
            var signalNumber: UInt8 = 0
            while true {
                let count = read(descriptor, &signalNumber, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                deliver()
            }
        }
    }

    /// Makes the next signal an interrupt for ``wait()``, including one that comes before anyone waits, instead of
    /// an exit; commands call it before they say they are ready.
    static func beginHandling() {
        state.withLock { $0.handling = true }
    }

    /// Whether a signal came since ``beginHandling()``.
    static var hasOccurred: Bool {
        state.withLock { $0.interrupted }
    }

    /// Suspends until the process receives SIGINT or SIGTERM, or the task is cancelled; returns at once when a signal
    /// already came.
    static func wait() async {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumesNow = state.withLock { state in
                    guard !state.interrupted, !Task.isCancelled else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumesNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Wakes the waiting tasks the first time; exits when nobody waits or when the waiters had their chance.
    private static func deliver() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
            guard !state.interrupted, state.handling || !state.waiters.isEmpty else { return nil }
            state.interrupted = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        guard let waiters else { exit(ExitStatus.interrupted) }
        for waiter in waiters { waiter.resume() }
    }
}
