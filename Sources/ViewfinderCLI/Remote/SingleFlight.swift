import Dispatch
import ViewfinderSystem

/// A value made by one caller at a time and kept for its key: callers that need it while it is being made wait for
/// that making instead of starting their own, so a slow and costly value (a card's listing) is made once however
/// many ask for it at once.
///
/// ```swift
/// let listing = SingleFlight<Int, [File]>()
/// let files = try listing.value(for: version, until: .now + .seconds(60)) { try listFiles() }
/// ```
final class SingleFlight<Key: Equatable & Sendable, Value: Sendable>: Sendable {
    /// Why a caller got no value: the making it waited for did not end by its deadline.
    struct TimedOut: Error {}

    private struct State {
        var made: (key: Key, value: Value)?
        /// Left once the making under way ends.
        var running: DispatchGroup?
        var waiting = 0
    }

    /// What a caller does next.
    private enum Step {
        case made(Value)
        case wait(DispatchGroup)
        case make(DispatchGroup)
    }

    private let state = Locked(State())

    /// How many callers wait for a making now.
    var waitingCount: Int { state.withLock { $0.waiting } }

    /// The value for `key`: the one kept, the one being made once it is, or one `make` makes now.
    ///
    /// Blocks the calling thread.
    ///
    /// - Throws: What `make` throws, to its caller alone (those that waited make the value again); ``TimedOut`` when
    ///   a making that the caller waited for did not end by `deadline`.
    func value(for key: Key, until deadline: ContinuousClock.Instant, making make: () throws -> Value) throws -> Value {
        while true {
            let step = state.withLock { state -> Step in
                if let made = state.made, made.key == key { return .made(made.value) }
                if let running = state.running {
                    state.waiting += 1
                    return .wait(running)
                }
                let running = DispatchGroup()
                running.enter()
                state.running = running
                return .make(running)
            }
            switch step {
            case .made(let value):
                return value
            case .wait(let running):
                let result = running.wait(timeout: DispatchTime(deadline))
                state.withLock { $0.waiting -= 1 }
                guard result == .success else { throw TimedOut() }
            case .make(let running):
                defer {
                    state.withLock { $0.running = nil }
                    running.leave()
                }
                let value = try make()
                state.withLock { $0.made = (key, value) }
                return value
            }
        }
    }
}
