extension Publishers {
    /// A publisher of the newest values of two publishers, as a pair, each time either produces a value.
    ///
    /// Nothing is delivered until both have produced a value. When the subscriber has no demand, the newest pair
    /// waits and is delivered as soon as it asks. Fails when either fails; finishes when both have finished.
    public struct CombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
        /// Pairs of the newest values.
        public typealias Output = (A.Output, B.Output)
        /// The failure type both publishers share.
        public typealias Failure = A.Failure

        /// The first publisher.
        public let a: A
        /// The second publisher.
        public let b: B

        /// Creates a publisher combining `a` and `b`.
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        /// Attaches a subscriber, then both publishers.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let empty: (A.Output?, B.Output?) = (nil, nil)
            let inner = CombineLatestInner(downstream: subscriber, empty: empty, count: 2) {
                guard let a = $0.0, let b = $0.1 else { return nil }
                return (a, b)
            }
            subscriber.receive(subscription: inner)
            a.subscribe(inner.side(0) { $0.0 = $1 })
            b.subscribe(inner.side(1) { $0.1 = $1 })
        }
    }

    /// A publisher of the newest values of three publishers, as a triple, each time any produces a value.
    ///
    /// Behaves like ``CombineLatest`` for three publishers.
    public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure {
        /// Triples of the newest values.
        public typealias Output = (A.Output, B.Output, C.Output)
        /// The failure type the publishers share.
        public typealias Failure = A.Failure

        /// The first publisher.
        public let a: A
        /// The second publisher.
        public let b: B
        /// The third publisher.
        public let c: C

        /// Creates a publisher combining `a`, `b` and `c`.
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// Attaches a subscriber, then the three publishers.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let empty: (A.Output?, B.Output?, C.Output?) = (nil, nil, nil)
            let inner = CombineLatestInner(downstream: subscriber, empty: empty, count: 3) {
                guard let a = $0.0, let b = $0.1, let c = $0.2 else { return nil }
                return (a, b, c)
            }
            subscriber.receive(subscription: inner)
            a.subscribe(inner.side(0) { $0.0 = $1 })
            b.subscribe(inner.side(1) { $0.1 = $1 })
            c.subscribe(inner.side(2) { $0.2 = $1 })
        }
    }

    /// A publisher of the newest values of four publishers, as a quadruple, each time any produces a value.
    ///
    /// Behaves like ``CombineLatest`` for four publishers.
    public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
    where A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure {
        /// Quadruples of the newest values.
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        /// The failure type the publishers share.
        public typealias Failure = A.Failure

        /// The first publisher.
        public let a: A
        /// The second publisher.
        public let b: B
        /// The third publisher.
        public let c: C
        /// The fourth publisher.
        public let d: D

        /// Creates a publisher combining `a`, `b`, `c` and `d`.
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        /// Attaches a subscriber, then the four publishers.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let empty: (A.Output?, B.Output?, C.Output?, D.Output?) = (nil, nil, nil, nil)
            let inner = CombineLatestInner(downstream: subscriber, empty: empty, count: 4) {
                guard let a = $0.0, let b = $0.1, let c = $0.2, let d = $0.3 else { return nil }
                return (a, b, c, d)
            }
            subscriber.receive(subscription: inner)
            a.subscribe(inner.side(0) { $0.0 = $1 })
            b.subscribe(inner.side(1) { $0.1 = $1 })
            c.subscribe(inner.side(2) { $0.2 = $1 })
            d.subscribe(inner.side(3) { $0.3 = $1 })
        }
    }
}

extension Publisher {
    /// Combines this publisher with another into pairs of their newest values.
    public func combineLatest<P: Publisher>(_ other: P) -> Publishers.CombineLatest<Self, P>
    where P.Failure == Failure {
        Publishers.CombineLatest(self, other)
    }

    /// Combines this publisher with another and transforms each pair of their newest values.
    public func combineLatest<P: Publisher, T>(
        _ other: P,
        _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T> where P.Failure == Failure {
        combineLatest(other).map(transform)
    }

    /// Combines this publisher with two others into triples of their newest values.
    public func combineLatest<P: Publisher, Q: Publisher>(_ p: P, _ q: Q) -> Publishers.CombineLatest3<Self, P, Q>
    where P.Failure == Failure, Q.Failure == Failure {
        Publishers.CombineLatest3(self, p, q)
    }

    /// Combines this publisher with two others and transforms each triple of their newest values.
    public func combineLatest<P: Publisher, Q: Publisher, T>(
        _ p: P,
        _ q: Q,
        _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T> where P.Failure == Failure, Q.Failure == Failure {
        combineLatest(p, q).map(transform)
    }

    /// Combines this publisher with three others into quadruples of their newest values.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
        _ p: P,
        _ q: Q,
        _ r: R
    ) -> Publishers.CombineLatest4<Self, P, Q, R>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        Publishers.CombineLatest4(self, p, q, r)
    }

    /// Combines this publisher with three others and transforms each quadruple of their newest values.
    public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
        _ p: P,
        _ q: Q,
        _ r: R,
        _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
        combineLatest(p, q, r).map(transform)
    }
}
