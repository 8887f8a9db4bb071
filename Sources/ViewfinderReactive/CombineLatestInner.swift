/// The subscription behind `combineLatest`: the newest value of each upstream and the combinations sent on.
///
/// Each upstream is a side with its own slot in `Values`. Once every slot is filled, each new value produces a
/// combination. The subscriber's demand is passed to every upstream; a combination that finds no demand waits,
/// replaced by newer ones, until the subscriber asks. A failure from any upstream cancels the others and fails
/// the subscriber; it finishes once every upstream has finished.
final class CombineLatestInner<Values, Downstream: Subscriber>: Subscription {
    private typealias Action = Delivery<Downstream.Input, Downstream.Failure>.Action

    private struct State {
        var values: Values
        var upstreams: [(any Subscription)?]
        var finishedCount = 0
        /// Everything the subscriber requested, for upstreams that attach late.
        var requested = Subscribers.Demand.none
        var delivery: Delivery<Downstream.Input, Downstream.Failure>
    }

    private let state: LockedState<State>
    /// The subscriber, called without retaining it; `state` owns it (see ``Delivery``).
    private let target: Unmanaged<AnySubscriber<Downstream.Input, Downstream.Failure>.Box>
    /// The combination of the slots, or nil while a slot is empty.
    private let combine: (Values) -> Downstream.Input?

    init(downstream: Downstream, empty: Values, count: Int, combine: @escaping (Values) -> Downstream.Input?) {
        let downstream = AnySubscriber(downstream)
        state = LockedState(
            State(
                values: empty,
                upstreams: Array(repeating: nil, count: count),
                delivery: Delivery(downstream: downstream, keepsLatest: true)
            )
        )
        target = Unmanaged.passUnretained(downstream.box)
        self.combine = combine
    }

    /// The subscriber for upstream number `index`, which stores its values with `store`.
    func side<Input>(_ index: Int, store: @escaping (inout Values, Input) -> Void) -> Side<Input> {
        Side(inner: self, index: index, store: store)
    }

    func request(_ demand: Subscribers.Demand) {
        let (upstreams, action) = state.withLock { state -> ([(any Subscription)?], Action) in
            guard state.delivery.isActive, demand > 0 else { return ([], .none) }
            state.requested += demand
            return (state.upstreams, state.delivery.request(demand))
        }
        run(action)
        for upstream in upstreams {
            upstream?.request(demand)
        }
    }

    func cancel() {
        let upstreams = state.withLock { state -> [(any Subscription)?] in
            guard state.delivery.cancel() else { return [] }
            defer { state.upstreams = [] }
            return state.upstreams
        }
        for upstream in upstreams {
            upstream?.cancel()
        }
    }

    private func run(_ action: consuming Action) {
        Delivery.run(action, to: target) { more in state.withLock { $0.delivery.delivered(more) } }
    }

    fileprivate func receive(subscription: any Subscription, index: Int) {
        let requested = state.withLock { state -> Subscribers.Demand? in
            guard state.delivery.isActive, state.upstreams[index] == nil else { return nil }
            state.upstreams[index] = subscription
            return state.requested
        }
        guard let requested else { return subscription.cancel() }
        if requested > 0 { subscription.request(requested) }
    }

    fileprivate func receive<Input>(_ input: Input, store: (inout Values, Input) -> Void) {
        run(
            state.withLock { state in
                guard state.delivery.isActive else { return .none }
                store(&state.values, input)
                guard let combination = combine(state.values) else { return .none }
                return state.delivery.offer(combination)
            }
        )
    }

    fileprivate func receive(completion: Subscribers.Completion<Downstream.Failure>, index: Int) {
        let (others, action) = state.withLock { state -> ([(any Subscription)?], Action) in
            guard state.delivery.isActive else { return ([], .none) }
            switch completion {
            case .finished:
                state.upstreams[index] = nil
                state.finishedCount += 1
                guard state.finishedCount == state.upstreams.count else { return ([], .none) }
                return ([], state.delivery.finish(completion))
            case .failure:
                state.upstreams[index] = nil
                defer { state.upstreams = [] }
                return (state.upstreams, state.delivery.finish(completion))
            }
        }
        for other in others {
            other?.cancel()
        }
        run(action)
    }

    /// The subscriber attached to one upstream.
    struct Side<Input>: Subscriber {
        typealias Failure = Downstream.Failure

        let inner: CombineLatestInner
        let index: Int
        let store: (inout Values, Input) -> Void

        func receive(subscription: any Subscription) {
            inner.receive(subscription: subscription, index: index)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            inner.receive(input, store: store)
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            inner.receive(completion: completion, index: index)
        }
    }
}
