import Dispatch
import Synchronization

extension Publishers {
    /// A publisher that delivers values and completion to its subscriber on a dispatch queue.
    ///
    /// Events are queued in order and delivered by one block at a time, so the subscriber is called one event at
    /// a time even on a concurrent queue. Events that pile up while a block runs are delivered by that block: a
    /// busy subscriber costs one hand-off per batch rather than one per value. Demand and cancellation go to the
    /// upstream directly; the queue only ever holds values the subscriber asked for.
    public struct ReceiveOn<Upstream: Publisher>: Publisher {
        /// The upstream publisher's value type.
        public typealias Output = Upstream.Output
        /// The upstream publisher's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are moved.
        public let upstream: Upstream
        /// The queue the subscriber is called on.
        public let queue: DispatchQueue

        /// Creates a publisher that delivers `upstream`'s events on `queue`.
        @inlinable
        public init(upstream: Upstream, queue: DispatchQueue) {
            self.upstream = upstream
            self.queue = queue
        }

        /// Attaches a subscriber; it receives its subscription at once, on the current thread.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, queue: queue))
        }

        @usableFromInline
        final class Inner<Downstream: Subscriber>: Subscriber, Subscription
        where Downstream.Input == Output, Downstream.Failure == Failure {
            @usableFromInline
            enum Event {
                case value(Output)
                case completion(Subscribers.Completion<Failure>)
            }

            @usableFromInline
            struct State {
                @usableFromInline var downstream: Downstream?
                @usableFromInline var upstream: (any Subscription)?
                /// Events waiting for the queue.
                @usableFromInline var pending: [Event] = []
                /// True while a block is scheduled or running.
                @usableFromInline var scheduled = false
                /// True once the completion has arrived or the subscriber cancelled.
                @usableFromInline var ended = false

                @inlinable
                init(downstream: Downstream) {
                    self.downstream = downstream
                }

                /// Queues an event; true when a block must be scheduled to deliver it.
                @inlinable
                mutating func enqueue(_ event: Event) -> Bool {
                    guard !ended else { return false }
                    if case .completion = event { ended = true }
                    pending.append(event)
                    defer { scheduled = true }
                    return !scheduled
                }
            }

            @usableFromInline let state: LockedState<State>
            @usableFromInline let queue: DispatchQueue
            @usableFromInline let cancelled = Atomic(false)
            /// The work scheduled on the queue: ``drain()``, if the subscription still exists by then.
            ///
            /// Compiled where the subscriber's type is known, so delivery runs as specialised code; set once, in
            /// `init`.
            @usableFromInline private(set) var drainJob = Unchecked<() -> Void> {}

            @inlinable
            init(downstream: Downstream, queue: DispatchQueue) {
                self.state = LockedState(State(downstream: downstream))
                self.queue = queue
                self.drainJob = Unchecked { [weak self] in self?.drain() }
            }

            @inlinable
            func receive(subscription: any Subscription) {
                let downstream = state.withLock { state -> Downstream? in
                    guard state.upstream == nil, !state.ended else { return nil }
                    state.upstream = subscription
                    return state.downstream
                }
                guard let downstream else { return subscription.cancel() }
                downstream.receive(subscription: self)
            }

            @inlinable
            func receive(_ input: Output) -> Subscribers.Demand {
                if state.withLock({ $0.enqueue(.value(input)) }) { schedule() }
                return .none
            }

            @inlinable
            func receive(completion: Subscribers.Completion<Failure>) {
                if state.withLock({ $0.enqueue(.completion(completion)) }) { schedule() }
            }

            @inlinable
            func request(_ demand: Subscribers.Demand) {
                state.withLock { $0.upstream }?.request(demand)
            }

            @inlinable
            func cancel() {
                cancelled.store(true, ordering: .relaxed)
                let upstream = state.withLock { state in
                    defer {
                        state.upstream = nil
                        state.downstream = nil
                        state.pending = []
                        state.ended = true
                    }
                    return state.upstream
                }
                upstream?.cancel()
            }

            /// Schedules ``drain()`` on the queue.
            @inlinable
            func schedule() {
                let drain = drainJob
                queue.async { drain.value() }
            }

            /// Delivers batches of events until none are left; runs on the queue.
            ///
            /// Each batch swaps the pending events for the emptied array of the previous batch, so steady delivery
            /// reuses the same two buffers.
            @inlinable
            func drain() {
                var batch: [Event] = []
                while true {
                    let target = state.withLock { state -> (Downstream, (any Subscription)?)? in
                        guard let downstream = state.downstream, !state.pending.isEmpty else {
                            state.scheduled = false
                            return nil
                        }
                        swap(&batch, &state.pending)
                        return (downstream, state.upstream)
                    }
                    guard let (downstream, upstream) = target else { return }
                    var demand = Subscribers.Demand.none
                    for event in batch {
                        if cancelled.load(ordering: .relaxed) { return }
                        switch event {
                        case .value(let value):
                            demand += downstream.receive(value)
                        case .completion(let completion):
                            state.withLock { state in
                                state.downstream = nil
                                state.upstream = nil
                            }
                            downstream.receive(completion: completion)
                            return
                        }
                    }
                    if demand > 0 { upstream?.request(demand) }
                    batch.removeAll(keepingCapacity: true)
                }
            }
        }
    }
}

extension Publisher {
    /// Delivers values and completion on `queue`, one event at a time, in order.
    ///
    /// Demand and cancellation are passed to the upstream at once, from the thread that makes them.
    @inlinable
    public func receive(on queue: DispatchQueue) -> Publishers.ReceiveOn<Self> {
        Publishers.ReceiveOn(upstream: self, queue: queue)
    }
}
