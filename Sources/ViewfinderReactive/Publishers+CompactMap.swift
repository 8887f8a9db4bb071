extension Publishers {
    /// A publisher that transforms each value with a closure and drops the nil results.
    ///
    /// Each dropped value is requested again from the upstream, so the subscriber's demand counts only the values
    /// it receives.
    public struct CompactMap<Upstream: Publisher, Output>: Publisher {
        /// The upstream publisher's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transformation; nil drops the value.
        public let transform: (Upstream.Output) -> Output?

        /// Creates a publisher that transforms `upstream`'s values with `transform` and drops nil results.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches a subscriber; demand and cancellation go straight to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let transform = self.transform
            upstream.subscribe(
                Relay(subscriber) { input in
                    guard let output = transform(input) else { return .max(1) }
                    return subscriber.receive(output)
                }
            )
        }
    }
}

extension Publisher {
    /// Transforms each value with a closure and drops the nil results.
    @inlinable
    public func compactMap<T>(_ transform: @escaping (Output) -> T?) -> Publishers.CompactMap<Self, T> {
        Publishers.CompactMap(upstream: self, transform: transform)
    }
}
