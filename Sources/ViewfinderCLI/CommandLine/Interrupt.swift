import CViewfinderSystem
import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C (SIGINT) and SIGTERM, so long-running commands can stop cleanly.
///
/// Once ``install()`` has run, a signal resumes every task in ``wait()`` and runs every action given to ``watch(_:)``.
/// With nobody waiting or watching and no command that called ``beginHandling()``, or at a second signal, the tool
/// exits at once with status 130. The signal handler only writes to a pipe that a thread of its own reads, so it does
/// not matter which thread the kernel picks to run it.
enum Interrupt {
    /// Whether the command handles signals, and whether one came.
    private struct State {
        var handling = false
        var interrupted = false
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var watchers: [Int: @Sendable () -> Void] = [:]
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

    /// Calls `action` at the next signal, as a task in ``wait()`` would be woken, until ``endWatch(_:)`` is called
    /// with the number returned; the watch holds from the moment this returns, so a signal right after is not lost.
    static func watch(_ action: @escaping @Sendable () -> Void) -> Int {
        state.withLock { state in
            defer { state.nextWaiter += 1 }
            state.watchers[state.nextWaiter] = action
            return state.nextWaiter
        }
    }

    /// Ends a watch ``watch(_:)`` began; its action is not called after this returns, unless a signal's call to it
    /// had begun.
    static func endWatch(_ id: Int) {
        _ = state.withLock { $0.watchers.removeValue(forKey: id) }
    }

    /// Wakes the waiting tasks and calls the watches' actions the first time; exits when nobody waits or watches, or
    /// when they had their chance.
    private static func deliver() {
        let woken = state.withLock {
            state -> (waiters: [CheckedContinuation<Void, Never>], actions: [@Sendable () -> Void])? in
            guard !state.interrupted, state.handling || !state.waiters.isEmpty || !state.watchers.isEmpty else {
                return nil
            }
            state.interrupted = true
            defer { (state.waiters, state.watchers) = ([:], [:]) }
            return (Array(state.waiters.values), Array(state.watchers.values))
        }
        guard let woken else { exit(ExitStatus.interrupted) }
        for waiter in woken.waiters { waiter.resume() }
        for action in woken.actions { action() }
    }
}
