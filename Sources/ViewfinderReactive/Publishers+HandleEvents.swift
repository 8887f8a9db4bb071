extension Publishers {
    /// A publisher that calls closures on each event of a subscription, then passes the event on.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        /// The upstream publisher's value type.
        public typealias Output = Upstream.Output
        /// The upstream publisher's failure type.
        public typealias Failure = Upstream.Failure

        /// The publisher whose events are observed.
        public let upstream: Upstream
        /// Called with the upstream subscription.
        public var receiveSubscription: ((any Subscription) -> Void)?
        /// Called with each value.
        public var receiveOutput: ((Output) -> Void)?
        /// Called with the completion.
        public var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
        /// Called when the subscriber cancels.
        public var receiveCancel: (() -> Void)?
        /// Called with each demand the subscriber requests, before it goes upstream.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates a publisher that calls the given closures on `upstream`'s events.
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches a subscriber.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(self, downstream: subscriber))
        }

        /// Sits between the subscriber and the upstream subscription to see requests and cancellation.
        private final class Inner<Downstream: Subscriber>: Subscriber, Subscription
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private let events: HandleEvents
            private let downstream: Downstream
            private let upstream = LockedState<(any Subscription)?>(nil)

            init(_ events: HandleEvents, downstream: Downstream) {
                self.events = events
                self.downstream = downstream
            }

            func receive(subscription: any Subscription) {
                events.receiveSubscription?(subscription)
                upstream.withLock { $0 = subscription }
                downstream.receive(subscription: self)
            }

            func receive(_ input: Output) -> Subscribers.Demand {
                events.receiveOutput?(input)
                return downstream.receive(input)
            }

            func receive(completion: Subscribers.Completion<Failure>) {
                events.receiveCompletion?(completion)
                upstream.withLock { $0 = nil }
                downstream.receive(completion: completion)
            }

            func request(_ demand: Subscribers.Demand) {
                events.receiveRequest?(demand)
                upstream.withLock { $0 }?.request(demand)
            }

            func cancel() {
                let subscription = upstream.withLock { upstream in
                    defer { upstream = nil }
                    return upstream
                }
                guard let subscription else { return }
                events.receiveCancel?()
                subscription.cancel()
            }
        }
    }
}

extension Publisher {
    /// Calls closures on the events of each subscription: subscription, values, completion, cancellation and
    /// demand requests.
    ///
    /// `receiveRequest` sees the demand the subscriber asks for; a publisher can use it on its own pipeline to learn
    /// that a subscriber asked for ``Subscribers/Demand/unlimited``.
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion,
            receiveCancel: receiveCancel,
            receiveRequest: receiveRequest
        )
    }
}
