import ViewfinderSystem

/// The commands an agent has taken, so that each is applied once however often it arrives.
///
/// A command is new, running (its answer is not ready: a second copy is ignored, the answer goes out once ready),
/// or done (a second copy gets the same answer again, as its sender may have missed the first). The ledger keeps the
/// last ``capacity`` commands; it is bounded, so a sender that repeats a command after many others would have it
/// applied again, which no coordinator does.
final class CommandLedger: Sendable {
    /// What to do with a command that arrived.
    enum Entry: Equatable, Sendable {
        /// Apply it: it is new.
        case new
        /// Ignore it: the same command is being applied.
        case running
        /// Send this answer again: the same command was applied.
        case done([UInt8])
    }

    private struct State {
        var entries: [String: [UInt8]?] = [:]
        var order: [String] = []
    }

    /// How many commands are remembered.
    let capacity: Int
    private let state = Locked(State())

    /// A ledger of the last `capacity` commands.
    init(capacity: Int = 512) {
        self.capacity = capacity
    }

    /// Records command `id` as running if it is new, and says what to do with it.
    func take(_ id: String) -> Entry {
        state.withLock { state in
            if let entry = state.entries[id] {
                return entry.map { .done($0) } ?? .running
            }
            state.entries[id] = .some(nil)
            state.order.append(id)
            if state.order.count > capacity {
                let oldest = state.order.removeFirst()
                state.entries[oldest] = nil
            }
            return .new
        }
    }

    /// Records the answer of command `id`, for copies that arrive later.
    func finish(_ id: String, answer: [UInt8]) {
        state.withLock { state in
            guard state.entries[id] != nil else { return }
            state.entries[id] = .some(answer)
        }
    }

    /// How many commands are running now.
    var runningCount: Int {
        state.withLock { state in state.entries.values.filter { $0 == nil }.count }
    }
}
