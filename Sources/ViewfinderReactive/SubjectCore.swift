/// The subscribers of a subject, its completion and, for a current-value subject, its value.
///
/// Values are numbered under the lock; a subject that keeps a current value hands each subscriber only values
/// newer than the last it accepted, so concurrent sends never leave a subscriber behind the subject's value.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var conduits: [SubjectConduit<Output, Failure>] = []
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        /// The current value; nil for a subject that passes values through without keeping them.
        @usableFromInline var current: Output?
        /// The number of the newest value; the initial current value is number 1.
        @usableFromInline var version: UInt64 = 1

        @inlinable
        init(current: Output?) {
            self.current = current
        }
    }

    @usableFromInline let state: LockedState<State>
    /// True when the subject keeps a current value.
    @usableFromInline let keepsCurrent: Bool

    @inlinable
    init(current: Output?) {
        state = LockedState(State(current: current))
        keepsCurrent = current != nil
    }

    /// Attaches a subscriber; a current value waits for its first demand.
    ///
    /// The subscriber receives its subscription before the conduit joins the list, so nothing — not even a
    /// completion sent meanwhile from another thread — reaches it first.
    @inlinable
    func attach<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        let conduit = SubjectConduit(core: self, downstream: AnySubscriber(subscriber), keepsLatest: keepsCurrent)
        subscriber.receive(subscription: conduit)
        let attachment = state.withLock { state -> Attachment in
            if let completion = state.completion { return .completed(completion) }
            // A conduit cancelled during `receive(subscription:)` has already tried to remove itself.
            guard conduit.isActive else { return .cancelled }
            state.conduits.append(conduit)
            return .attached(current: state.current, version: state.version)
        }
        switch attachment {
        case .attached(let current, let version):
            if let current { conduit.offer(current, version: version) }
        case .completed(let completion):
            conduit.finish(completion)
        case .cancelled:
            break
        }
    }

    /// Sends a value to every subscriber, unless the subject has completed.
    @inlinable
    func send(_ value: Output) {
        let (conduits, version) = state.withLock { state -> ([SubjectConduit<Output, Failure>], UInt64) in
            guard state.completion == nil else { return ([], 0) }
            if keepsCurrent { state.current = value }
            state.version &+= 1
            return (state.conduits, state.version)
        }
        for conduit in conduits {
            conduit.offer(value, version: version)
        }
    }

    /// Completes every subscriber, once.
    @usableFromInline
    func finish(_ completion: Subscribers.Completion<Failure>) {
        let conduits = state.withLock { state -> [SubjectConduit<Output, Failure>] in
            guard state.completion == nil else { return [] }
            state.completion = completion
            defer { state.conduits = [] }
            return state.conduits
        }
        for conduit in conduits {
            conduit.finish(completion)
        }
    }

    /// Forgets a cancelled subscriber.
    @usableFromInline
    func remove(_ conduit: SubjectConduit<Output, Failure>) {
        state.withLock { state in
            if let index = state.conduits.firstIndex(where: { $0 === conduit }) {
                state.conduits.remove(at: index)
            }
        }
    }

    /// The outcome of attaching a subscriber.
    @usableFromInline
    enum Attachment {
        /// Attached; the current value, if the subject keeps one, and its number.
        case attached(current: Output?, version: UInt64)
        /// The subject had already completed.
        case completed(Subscribers.Completion<Failure>)
        /// The subscriber cancelled as soon as it received its subscription.
        case cancelled
    }
}

/// One subscriber's connection to a subject.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var delivery: Delivery<Output, Failure>
        /// The number of the newest value accepted, when the subject keeps a current value.
        @usableFromInline var version: UInt64 = 0

        @inlinable
        init(delivery: Delivery<Output, Failure>) {
            self.delivery = delivery
        }
    }

    @usableFromInline let core: SubjectCore<Output, Failure>
    @usableFromInline let state: LockedState<State>
    /// The subscriber, called without retaining it.
    ///
    /// `state` owns it (see ``Delivery``); calls to it cross threads under the publisher contract, one at a time.
    @usableFromInline nonisolated(unsafe) let target: Unmanaged<AnySubscriber<Output, Failure>.Box>

    @inlinable
    init(core: SubjectCore<Output, Failure>, downstream: AnySubscriber<Output, Failure>, keepsLatest: Bool) {
        self.core = core
        self.state = LockedState(State(delivery: Delivery(downstream: downstream, keepsLatest: keepsLatest)))
        self.target = Unmanaged.passUnretained(downstream.box)
    }

    /// Offers value number `version`; an older value than one already accepted is ignored when keeping the latest.
    @inlinable
    func offer(_ value: Output, version: UInt64) {
        let action = state.withLock { state -> Delivery<Output, Failure>.Action in
            if state.delivery.keepsLatest {
                guard version > state.version else { return .none }
                state.version = version
            }
            return state.delivery.offer(value)
        }
        run(action)
    }

    @inlinable
    func run(_ action: consuming Delivery<Output, Failure>.Action) {
        Delivery.run(action, to: target) { more in state.withLock { $0.delivery.delivered(more) } }
    }

    @usableFromInline
    func finish(_ completion: Subscribers.Completion<Failure>) {
        run(state.withLock { $0.delivery.finish(completion) })
    }

    /// True until the subscriber has cancelled or been given its completion.
    @usableFromInline
    var isActive: Bool {
        state.withLock { $0.delivery.isActive }
    }

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {
        run(state.withLock { $0.delivery.request(demand) })
    }

    @usableFromInline
    func cancel() {
        if state.withLock({ $0.delivery.cancel() }) {
            core.remove(self)
        }
    }
}
