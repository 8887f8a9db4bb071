extension Publishers {
    /// A publisher that passes on only the values that satisfy a predicate.
    ///
    /// Each rejected value is requested again from the upstream, so the subscriber's demand counts only the values
    /// it receives.
    public struct Filter<Upstream: Publisher>: Publisher {
        /// The upstream publisher's value type.
        public typealias Output = Upstream.Output
        /// The upstream publisher's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are filtered.
        public let upstream: Upstream
        /// The predicate; true keeps the value.
        public let isIncluded: (Output) -> Bool

        /// Creates a publisher that passes on `upstream`'s values that satisfy `isIncluded`.
        @inlinable
        public init(upstream: Upstream, isIncluded: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.isIncluded = isIncluded
        }

        /// Attaches a subscriber; demand and cancellation go straight to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let isIncluded = self.isIncluded
            upstream.subscribe(Relay(subscriber) { isIncluded($0) ? subscriber.receive($0) : .max(1) })
        }
    }
}

extension Publisher {
    /// Passes on only the values that satisfy a predicate.
    @inlinable
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self> {
        Publishers.Filter(upstream: self, isIncluded: isIncluded)
    }
}
