import Synchronization

extension Subscribers {
    /// A subscriber that asks for one value at a time: the next only after the previous value's ready handler runs.
    ///
    /// Use it for costly streams such as live view, where a consumer that cannot keep up should make the publisher
    /// produce less rather than pile values up. The ready handler may be called from any thread, at any time after
    /// the value arrives; calling it more than once for a value asks for one more value only.
    public final class SinkWithReadyHandler<Input, Failure: Error>: Subscriber, Cancellable {
        /// The closure that receives each value with the handler to call when ready for the next.
        public let receiveValue: (Input, @escaping ReadyHandler) -> Void
        /// The closure that receives the completion.
        public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

        private let pacer = Pacer()

        /// Creates a subscriber that calls the given closures.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input, @escaping ReadyHandler) -> Void
        ) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
        }

        /// Stores the subscription and requests one value.
        public func receive(subscription: any Subscription) {
            guard pacer.slot.accept(subscription) else { return subscription.cancel() }
            subscription.request(.max(1))
        }

        /// Calls `receiveValue` with a ready handler that requests the next value, unless the subscriber has ended.
        public func receive(_ input: Input) -> Subscribers.Demand {
            guard pacer.slot.isSubscribed else { return .none }
            receiveValue(input, pacer.readyHandler())
            return .none
        }

        /// Calls `receiveCompletion` once and lets go of the subscription.
        public func receive(completion: Subscribers.Completion<Failure>) {
            if pacer.slot.terminate().ended { receiveCompletion(completion) }
        }

        /// Cancels the subscription; later values and the completion are ignored.
        public func cancel() {
            pacer.slot.terminate().subscription?.cancel()
        }
    }

    /// The closure a ``SinkWithReadyHandler`` passes with each value: call it when ready for the next value.
    public typealias ReadyHandler = @Sendable () -> Void

    /// Counts values and ready calls so that each value leads to at most one request.
    private final class Pacer: Sendable {
        let slot = SubscriptionSlot()
        /// The number of values received.
        private let received = Atomic<UInt64>(0)
        /// The number of values whose ready handler has run.
        private let readied = Atomic<UInt64>(0)

        /// A ready handler for the value just received; only its first call, and only while it belongs to the
        /// newest value, requests another value.
        func readyHandler() -> ReadyHandler {
            let number = received.add(1, ordering: .relaxed).newValue
            return { [self] in
                guard readied.compareExchange(expected: number - 1, desired: number, ordering: .relaxed).exchanged
                else { return }
                slot.subscription?.request(.max(1))
            }
        }
    }
}

extension Publisher {
    /// Subscribes with closures, asking for one value now and one more each time a value's ready handler is called.
    ///
    /// ```swift
    /// let cancellable = camera.liveViewPublisher(options: [:])
    ///     .receive(on: DispatchQueue.global(qos: .default))
    ///     .sinkWithReadyHandler { completion in
    ///         print("Live view ended: \(completion)")
    ///     } receiveValue: { frame, readyForNextFrame in
    ///         render(frame)
    ///         readyForNextFrame()
    ///     }
    /// ```
    ///
    /// Keep the returned cancellable as long as the values should come.
    public func sinkWithReadyHandler(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output, @escaping Subscribers.ReadyHandler) -> Void
    ) -> AnyCancellable {
        let subscriber = Subscribers.SinkWithReadyHandler(
            receiveCompletion: receiveCompletion,
            receiveValue: receiveValue
        )
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}
