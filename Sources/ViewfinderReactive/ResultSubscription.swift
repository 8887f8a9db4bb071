/// A subscription that delivers one result: a value followed by `finished` once there is demand, or a failure
/// at once.
///
/// ``Just`` creates it with its value; ``Future`` creates it empty and fulfils it later, from any thread. Nothing
/// is delivered until `attach(_:outcome:)` has handed the subscription to the subscriber.
final class ResultSubscription<Downstream: Subscriber>: Subscription, Sendable {
    typealias Outcome = Result<Downstream.Input, Downstream.Failure>

    private struct State {
        var downstream: Downstream?
        var outcome: Outcome?
        var demanded = false
        var attached = false

        /// Takes the subscriber when the outcome can be delivered.
        mutating func takeIfReady() -> (Downstream, Outcome)? {
            guard attached, let downstream, let outcome else { return nil }
            if case .success = outcome, !demanded { return nil }
            self.downstream = nil
            return (downstream, outcome)
        }
    }

    private let state: LockedState<State>

    private init(downstream: Downstream, outcome: Outcome?) {
        state = LockedState(State(downstream: downstream, outcome: outcome))
    }

    /// Hands a new subscription to `downstream`, then delivers `outcome` if it is known and can be delivered.
    @discardableResult
    static func attach(_ downstream: Downstream, outcome: Outcome?) -> ResultSubscription {
        let subscription = ResultSubscription(downstream: downstream, outcome: outcome)
        downstream.receive(subscription: subscription)
        subscription.deliver(
            subscription.state.withLock { state in
                state.attached = true
                return state.takeIfReady()
            }
        )
        return subscription
    }

    /// Sets the result, once, and delivers it if it can be.
    func fulfil(_ outcome: Outcome) {
        deliver(
            state.withLock { state in
                if state.outcome == nil { state.outcome = outcome }
                return state.takeIfReady()
            }
        )
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        deliver(
            state.withLock { state in
                state.demanded = true
                return state.takeIfReady()
            }
        )
    }

    func cancel() {
        state.withLock { $0.downstream = nil }
    }

    private func deliver(_ ready: (Downstream, Outcome)?) {
        guard let (downstream, outcome) = ready else { return }
        switch outcome {
        case .success(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }
}
