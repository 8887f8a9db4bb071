import ViewfinderSystem

#if canImport(Glibc)
import Glibc
#endif

/// Holds the cameras' tasks of one operation until every camera is ready, then lets them all go at once.
///
/// Each camera's task either passes the gate (``pass(_:)``) once, or leaves without passing (``leave(_:)``) when it
/// fails or times out first; the gate opens when every camera still taking part is waiting, so one camera that cannot
/// get ready never holds the others. A gate given an instant opens no earlier than that instant: a thread of its own
/// sleeps until then and lets every waiting task go in one step, so the cameras of a host go as close to the instant
/// as the system's timers allow.
final class RigStartGate: Sendable {
    private struct State {
        var expected: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
        var arrived: Set<Int> = []
        var left: Set<Int> = []
        var isOpen = false
    }

    private let state: Locked<State>
    /// When the gate opens at the earliest.
    private let opensAt: ContinuousClock.Instant?

    /// Creates a gate for `count` cameras that opens no earlier than `opensAt`.
    init(count: Int, opensAt: ContinuousClock.Instant? = nil) {
        state = Locked(State(expected: count))
        self.opensAt = opensAt
    }

    /// How many cameras wait at the gate now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Waits until every camera still taking part is waiting, as camera `index`.
    func pass(_ index: Int) async {
        await withCheckedContinuation { continuation in
            let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                guard !state.isOpen, !state.left.contains(index) else { return [continuation] }
                state.arrived.insert(index)
                state.waiting.append(continuation)
                return Self.openIfReady(&state)
            }
            release(released)
        }
    }

    /// Takes camera `index` out of the count when it never passed the gate.
    func leave(_ index: Int) {
        let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.arrived.contains(index), state.left.insert(index).inserted else { return [] }
            state.expected -= 1
            return Self.openIfReady(&state)
        }
        release(released)
    }

    private static func openIfReady(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        guard !state.isOpen, state.waiting.count >= state.expected else { return [] }
        state.isOpen = true
        defer { state.waiting = [] }
        return state.waiting
    }

    /// Resumes `continuations` outside the lock, in arrival order (the first to arrive goes first): at once, or from
    /// a thread that sleeps until the gate's instant.
    private func release(_ continuations: [CheckedContinuation<Void, Never>]) {
        guard !continuations.isEmpty else { return }
        guard let opensAt, ContinuousClock.now < opensAt else {
            for continuation in continuations { continuation.resume() }
            return
        }
        do {
            try PlatformThread.detach(name: "rig-start") {
                Self.sleep(until: opensAt)
                for continuation in continuations { continuation.resume() }
            }
        } catch {
            // No thread to spare: go at once rather than never.
            for continuation in continuations { continuation.resume() }
        }
    }

    /// Blocks the calling thread until `instant`.
    private static func sleep(until instant: ContinuousClock.Instant) {
        while true {
            let remaining = ContinuousClock.now.duration(to: instant)
            guard remaining > .zero else { return }
            let (seconds, attoseconds) = remaining.components
            var time = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            _ = nanosleep(&time, nil)
        }
    }
}
