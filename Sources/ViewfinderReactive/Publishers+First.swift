extension Publishers {
    /// A publisher that passes on the first value, then finishes.
    ///
    /// It asks the upstream for no more than its subscriber asks for, and cancels the upstream after the first
    /// value.
    public struct First<Upstream: Publisher>: Publisher {
        /// The upstream publisher's value type.
        public typealias Output = Upstream.Output
        /// The upstream publisher's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose first value is passed on.
        public let upstream: Upstream

        /// Creates a publisher of `upstream`'s first value.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        /// Attaches a subscriber.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.prefix(1).subscribe(subscriber)
        }
    }

    /// A publisher that passes on the first value that satisfies a predicate, then finishes.
    public struct FirstWhere<Upstream: Publisher>: Publisher {
        /// The upstream publisher's value type.
        public typealias Output = Upstream.Output
        /// The upstream publisher's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose values are searched.
        public let upstream: Upstream
        /// The predicate the value must satisfy.
        public let predicate: (Output) -> Bool

        /// Creates a publisher of `upstream`'s first value that satisfies `predicate`.
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        /// Attaches a subscriber.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.filter(predicate).prefix(1).subscribe(subscriber)
        }
    }
}

extension Publisher {
    /// Passes on the first value, then finishes.
    public func first() -> Publishers.First<Self> {
        Publishers.First(upstream: self)
    }

    /// Passes on the first value that satisfies `predicate`, then finishes.
    public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
        Publishers.FirstWhere(upstream: self, predicate: predicate)
    }
}
