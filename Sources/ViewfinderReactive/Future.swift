/// A publisher that eventually produces one value and finishes, or fails.
///
/// The closure runs once, when the future is created, and may call the promise from any thread. Every
/// subscriber, including those that attach later, receives the same result: the value once it asks for one, or
/// the failure at once.
///
/// ```swift
/// let answer = Future<Int, Never> { promise in
///     DispatchQueue.global().async { promise(.success(42)) }
/// }
/// ```
public final class Future<Output, Failure: Error>: Publisher, Sendable {
    /// The closure that delivers the future's result; calls after the first are ignored.
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    private struct State {
        var outcome: Result<Output, Failure>?
        /// The subscribers waiting for the result.
        var waiting: [(Result<Output, Failure>) -> Void] = []
    }

    private let state = LockedState(State())

    /// Creates a future and runs `attemptToFulfill` with its promise.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] outcome in fulfil(outcome) }
    }

    /// Attaches a subscriber, which receives the result when it is known and asked for.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = ResultSubscription.attach(subscriber, outcome: nil)
        let outcome = state.withLock { state in
            if state.outcome == nil { state.waiting.append(subscription.fulfil) }
            return state.outcome
        }
        if let outcome { subscription.fulfil(outcome) }
    }

    private func fulfil(_ outcome: Result<Output, Failure>) {
        let waiting = state.withLock { state -> [(Result<Output, Failure>) -> Void] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiting = [] }
            return state.waiting
        }
        for fulfil in waiting {
            fulfil(outcome)
        }
    }
}
