import ViewfinderSystem

/// Holds the cameras' tasks of one operation until every camera is ready, then lets them all go at once.
///
/// Each camera's task either passes the gate (``pass()``) once, or leaves without passing (``leave(_:)``) when it
/// fails or times out first; the gate opens when every camera still taking part is waiting, so one camera that cannot
/// get ready never holds the others.
final class RigStartGate: Sendable {
    private struct State {
        var expected: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
        var arrived: Set<Int> = []
        var left: Set<Int> = []
        var isOpen = false
    }

    private let state: Locked<State>

    /// Creates a gate for `count` cameras.
    init(count: Int) {
        state = Locked(State(expected: count))
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
            // Resumed outside the lock, in arrival order: the first to arrive goes first.
            for continuation in released { continuation.resume() }
        }
    }

    /// Takes camera `index` out of the count when it never passed the gate.
    func leave(_ index: Int) {
        let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.arrived.contains(index), state.left.insert(index).inserted else { return [] }
            state.expected -= 1
            return Self.openIfReady(&state)
        }
        for continuation in released { continuation.resume() }
    }

    private static func openIfReady(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        guard !state.isOpen, state.waiting.count >= state.expected else { return [] }
        state.isOpen = true
        defer { state.waiting = [] }
        return state.waiting
    }
}
