import ViewfinderSystem

/// A counter that a test awaits: callbacks on other threads raise it, the test waits for a target.
final class Signal: Sendable {
    private struct State {
        var count = 0
        var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    init() {}

    /// The number of times the signal was raised.
    var count: Int { state.withLock { $0.count } }

    /// Raises the signal once.
    func raise() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let count = state.count
            let ready = state.waiters.filter { $0.target <= count }.map(\.continuation)
            state.waiters.removeAll { $0.target <= count }
            return ready
        }
        for continuation in ready {
            continuation.resume()
        }
    }

    /// Waits until the signal has been raised `target` times in total.
    func wait(for target: Int = 1) async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                guard state.count < target else { return true }
                state.waiters.append((target, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }
}
