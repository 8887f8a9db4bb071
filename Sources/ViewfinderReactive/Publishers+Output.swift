extension Publishers {
    /// A publisher that passes on only the values at positions within a range, then finishes.
    ///
    /// Values before the range are requested again from the upstream, so the subscriber's demand counts only the
    /// values it receives. Reaching the end of the range cancels the upstream and finishes.
    public struct Output<Upstream: Publisher>: Publisher {
        /// The upstream publisher's value type.
        public typealias Output = Upstream.Output
        /// The upstream publisher's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are selected.
        public let upstream: Upstream
        /// The positions of the values passed on, counting from zero.
        public let range: Range<Int>

        /// Creates a publisher that passes on `upstream`'s values at positions in `range`; negative bounds count
        /// as zero.
        public init(upstream: Upstream, range: Range<Int>) {
            self.upstream = upstream
            self.range = max(range.lowerBound, 0)..<max(range.upperBound, 0)
        }

        /// Attaches a subscriber.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, range: range))
        }

        /// Counts values; the upstream calls it one event at a time, so its counters need no lock.
        private final class Inner<Downstream: Subscriber>: Subscriber
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private let downstream: Downstream
            private let range: Range<Int>
            private var position = 0
            private var upstream: (any Subscription)?
            private var finished = false

            init(downstream: Downstream, range: Range<Int>) {
                self.downstream = downstream
                self.range = range
            }

            func receive(subscription: any Subscription) {
                guard range.isEmpty else {
                    upstream = subscription
                    return downstream.receive(subscription: subscription)
                }
                finished = true
                subscription.cancel()
                downstream.receive(subscription: Subscriptions.empty)
                downstream.receive(completion: .finished)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                guard !finished else { return .none }
                defer { position += 1 }
                guard position >= range.lowerBound else { return .max(1) }
                guard position + 1 == range.upperBound else { return downstream.receive(input) }
                finished = true
                upstream?.cancel()
                upstream = nil
                _ = downstream.receive(input)
                downstream.receive(completion: .finished)
                return .none
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                guard !finished else { return }
                finished = true
                upstream = nil
                downstream.receive(completion: completion)
            }
        }
    }
}

extension Publisher {
    /// Passes on at most the first `maxLength` values, then finishes.
    public func prefix(_ maxLength: Int) -> Publishers.Output<Self> {
        output(in: 0..<max(maxLength, 0))
    }

    /// Passes on only the value at `index`, counting from zero, then finishes.
    public func output(at index: Int) -> Publishers.Output<Self> {
        output(in: index..<(index == .max ? index : index + 1))
    }

    /// Passes on only the values at positions in `range`, counting from zero, then finishes.
    public func output(in range: Range<Int>) -> Publishers.Output<Self> {
        Publishers.Output(upstream: self, range: range)
    }
}
