extension Publishers {
    /// A publisher that drops a value when it matches the value passed on before it.
    ///
    /// Each dropped value is requested again from the upstream, so the subscriber's demand counts only the values
    /// it receives.
    public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
        /// The upstream publisher's value type.
        public typealias Output = Upstream.Output
        /// The upstream publisher's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose repeated values are dropped.
        public let upstream: Upstream
        /// True when the second value repeats the first.
        public let predicate: (Output, Output) -> Bool

        /// Creates a publisher that drops `upstream`'s values that `predicate` calls repeats of the previous one.
        public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches a subscriber; demand and cancellation go straight to the upstream.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let predicate = self.predicate
            // The upstream delivers one value at a time, so this subscription's own `previous` needs no lock.
            var previous: Output?
            upstream.subscribe(
                Relay(subscriber) { input in
                    if let previous, predicate(previous, input) { return .max(1) }
                    previous = input
                    return subscriber.receive(input)
                }
            )
        }
    }
}

extension Publisher {
    /// Drops a value when `predicate` says it repeats the value passed on before it.
    public func removeDuplicates(by predicate: @escaping (Output, Output) -> Bool) -> Publishers.RemoveDuplicates<Self>
    {
        Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
    }
}

extension Publisher where Output: Equatable {
    /// Drops a value when it equals the value passed on before it.
    public func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
        removeDuplicates(by: ==)
    }
}
