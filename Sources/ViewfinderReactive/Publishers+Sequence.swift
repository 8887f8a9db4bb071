import Synchronization

extension Publishers {
    /// A publisher that delivers the elements of a sequence as they are asked for, then finishes.
    ///
    /// Elements are read from the sequence only as demand allows, so a lazy or endless sequence is fine.
    public struct Sequence<Elements: Swift.Sequence, Failure: Error>: Publisher {
        /// The sequence's element type.
        public typealias Output = Elements.Element

        /// The elements to deliver.
        public let sequence: Elements

        /// Creates a publisher of `sequence`'s elements.
        @inlinable
        public init(sequence: Elements) {
            self.sequence = sequence
        }

        /// Attaches a subscriber; an empty sequence finishes it at once.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            var iterator = sequence.makeIterator()
            guard let first = iterator.next() else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
                return
            }
            let inner = Inner(downstream: subscriber, iterator: iterator, next: first) { $0.run($1) }
            subscriber.receive(subscription: inner)
        }

        /// Reads the sequence for one subscriber.
        ///
        /// One thread at a time runs the delivery loop; it owns the iterator while it runs. Demand that arrives
        /// meanwhile, from another thread or from the subscriber itself, is picked up before the loop gives up
        /// the iterator. Cancellation is checked before every element.
        @usableFromInline
        final class Inner<Downstream: Subscriber>: Subscription
        where Downstream.Input == Elements.Element, Downstream.Failure == Failure {
            @usableFromInline
            struct State {
                /// The subscriber, iterator and next element, while no loop runs; nil once finished or cancelled.
                @usableFromInline var source: Unchecked<Source>?
                @usableFromInline var demand = Subscribers.Demand.none
                @usableFromInline var running = false

                @inlinable
                init(source: Source) {
                    self.source = Unchecked(source)
                }
            }

            /// What the delivery loop owns.
            @usableFromInline
            struct Source {
                @usableFromInline let downstream: Downstream
                @usableFromInline var iterator: Elements.Iterator
                @usableFromInline var next: Elements.Element

                @inlinable
                init(downstream: Downstream, iterator: Elements.Iterator, next: Elements.Element) {
                    self.downstream = downstream
                    self.iterator = iterator
                    self.next = next
                }
            }

            @usableFromInline let state: LockedState<State>
            @usableFromInline let cancelled = Atomic(false)
            /// The delivery loop, compiled where the subscriber's type is known.
            ///
            /// Requests arrive through `any Subscription`; calling ``run(_:)`` from there would run the loop as
            /// generic code.
            @usableFromInline let runLoop: (Inner, Source) -> Void

            @inlinable
            init(
                downstream: Downstream,
                iterator: Elements.Iterator,
                next: Elements.Element,
                runLoop: @escaping (Inner, Source) -> Void
            ) {
                state = LockedState(State(source: Source(downstream: downstream, iterator: iterator, next: next)))
                self.runLoop = runLoop
            }

            @inlinable
            func request(_ demand: Subscribers.Demand) {
                guard demand > 0 else { return }
                let started = state.withLock { state -> Unchecked<Source>? in
                    state.demand += demand
                    guard !state.running, let source = state.source else { return nil }
                    state.running = true
                    return source
                }
                if let started { runLoop(self, started.value) }
            }

            /// Delivers elements while there is demand, then hands the iterator back or finishes.
            @inlinable
            func run(_ source: Source) {
                var source = source
                while true {
                    var demand = state.withLock { state in
                        defer { state.demand = .none }
                        return state.demand
                    }
                    while demand > 0 {
                        if cancelled.load(ordering: .relaxed) { return }
                        let element = source.next
                        guard let next = source.iterator.next() else {
                            state.withLock { $0.source = nil }
                            _ = source.downstream.receive(element)
                            if !cancelled.load(ordering: .relaxed) {
                                source.downstream.receive(completion: .finished)
                            }
                            return
                        }
                        source.next = next
                        demand -= 1
                        demand += source.downstream.receive(element)
                    }
                    let parked = state.withLock { state -> Bool in
                        guard state.demand == .none, state.source != nil else { return false }
                        state.source = Unchecked(source)
                        state.running = false
                        return true
                    }
                    if parked || cancelled.load(ordering: .relaxed) { return }
                }
            }

            @usableFromInline
            func cancel() {
                cancelled.store(true, ordering: .relaxed)
                state.withLock { $0.source = nil }
            }
        }
    }
}

extension Publishers.Sequence: Sendable where Elements: Sendable {}

extension Publishers.Sequence: Equatable where Elements: Equatable {}

extension Sequence {
    /// A publisher of this sequence's elements, delivered as demand allows.
    @inlinable
    public var publisher: Publishers.Sequence<Self, Never> {
        Publishers.Sequence(sequence: self)
    }
}
