import CViewfinderShims
import ViewfinderConcurrency

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
        var waiters: [CheckedContinuation<Void, Never>] = []
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

    /// Suspends until the process receives SIGINT or SIGTERM; returns at once when one already came.
    static func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let alreadyInterrupted = state.withLock { state in
                if !state.interrupted { state.waiters.append(continuation) }
                return state.interrupted
            }
            if alreadyInterrupted { continuation.resume() }
        }
    }

    /// Wakes the waiting tasks the first time; exits when nobody waits or when the waiters had their chance.
    private static func deliver() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>]? in
            guard !state.interrupted, state.handling || !state.waiters.isEmpty else { return nil }
            state.interrupted = true
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { exit(ExitStatus.interrupted) }
        for waiter in waiters { waiter.resume() }
    }
}
