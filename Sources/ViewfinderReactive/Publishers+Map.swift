extension Publishers {
    /// A publisher that transforms each value with a closure.
    public struct Map<Upstream: Publisher, Output>: Publisher {
        /// The upstream publisher's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are transformed.
        public let upstream: Upstream
        /// The transformation.
        public let transform: (Upstream.Output) -> Output

        /// Creates a publisher that transforms `upstream`'s values with `transform`.
        @inlinable
        public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
            self.upstream = upstream
            self.transform = transform
        }

        /// Attaches a subscriber; demand and cancellation go straight to the upstream.
        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let transform = self.transform
            upstream.subscribe(Relay(subscriber) { subscriber.receive(transform($0)) })
        }
    }
}

extension Publisher {
    /// Transforms each value with a closure.
    @inlinable
    public func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
        Publishers.Map(upstream: self, transform: transform)
    }
}
