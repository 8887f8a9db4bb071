extension Subscribers {
    /// A subscriber that asks for unlimited values and hands each one, and the completion, to closures.
    ///
    /// Values that arrive after cancellation or completion are ignored. The closures are released with the sink;
    /// capture `self` weakly in them when `self` keeps the sink's cancellable.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable {
        /// The closure that receives each value.
        public let receiveValue: (Input) -> Void
        /// The closure that receives the completion.
        public let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

        @usableFromInline let slot = SubscriptionSlot()

        /// Creates a sink that calls the given closures.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            self.receiveCompletion = receiveCompletion
            self.receiveValue = receiveValue
        }

        /// Stores the subscription and requests unlimited values.
        @inlinable
        public func receive(subscription: any Subscription) {
            guard slot.accept(subscription) else { return subscription.cancel() }
            subscription.request(.unlimited)
        }

        /// Calls `receiveValue` unless the sink has ended.
        @inlinable
        public func receive(_ input: Input) -> Subscribers.Demand {
            if slot.isSubscribed { receiveValue(input) }
            return .none
        }

        /// Calls `receiveCompletion` once and lets go of the subscription.
        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            if slot.terminate().ended { receiveCompletion(completion) }
        }

        /// Cancels the subscription; later values and the completion are ignored.
        @inlinable
        public func cancel() {
            slot.terminate().subscription?.cancel()
        }
    }
}

extension Publisher {
    /// Subscribes with closures for the values and the completion, asking for unlimited values.
    ///
    /// Keep the returned cancellable as long as the values should come.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Subscribes with a closure for the values of a publisher that cannot fail, asking for unlimited values.
    ///
    /// Keep the returned cancellable as long as the values should come.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}
