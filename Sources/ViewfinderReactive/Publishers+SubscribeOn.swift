import Dispatch

extension Publishers {
    /// A publisher that attaches to its upstream, requests from it and cancels it on a dispatch queue.
    ///
    /// Values and completion arrive on whatever thread the upstream uses; combine with `receive(on:)` to choose
    /// that too.
    public struct SubscribeOn<Upstream: Publisher>: Publisher {
        /// The upstream publisher's value type.
        public typealias Output = Upstream.Output
        /// The upstream publisher's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher attached to on the queue.
        public let upstream: Upstream
        /// The queue that subscribing, requests and cancellation run on.
        public let queue: DispatchQueue

        /// Creates a publisher that attaches to `upstream` on `queue`.
        public init(upstream: Upstream, queue: DispatchQueue) {
            self.upstream = upstream
            self.queue = queue
        }

        /// Attaches the subscriber to the upstream on the queue.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = Inner(downstream: subscriber, queue: queue)
            let upstream = self.upstream
            queue.run { upstream.subscribe(inner) }
        }

        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private let downstream: Downstream
            private let queue: DispatchQueue
            private let upstream = LockedState<(any Subscription)?>(nil)

            init(downstream: Downstream, queue: DispatchQueue) {
                self.downstream = downstream
                self.queue = queue
            }

            func receive(subscription: any Subscription) {
                upstream.withLock { $0 = subscription }
                downstream.receive(subscription: self)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                upstream.withLock { $0 = nil }
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                guard let subscription = upstream.withLock({ $0 }) else { return }
                queue.run { subscription.request(demand) }
            }

            func cancel() {
                let subscription = upstream.withLock { upstream in
                    defer { upstream = nil }
                    return upstream
                }
                guard let subscription else { return }
                queue.run { subscription.cancel() }
            }
        }
    }
}

extension DispatchQueue {
    /// Runs `work` on this queue; the work may hold subscribers and subscriptions, which the publisher contract
    /// lets cross threads (see ``LockedState``).
    fileprivate func run(_ work: @escaping () -> Void) {
        let work = Unchecked(work)
        async { work.value() }
    }
}

extension Publisher {
    /// Attaches to this publisher, requests from it and cancels it on `queue`.
    public func subscribe(on queue: DispatchQueue) -> Publishers.SubscribeOn<Self> {
        Publishers.SubscribeOn(upstream: self, queue: queue)
    }
}
