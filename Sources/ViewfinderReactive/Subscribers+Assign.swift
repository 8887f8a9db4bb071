extension Subscribers {
    /// A subscriber that asks for unlimited values and writes each one to a property of an object.
    ///
    /// The object is held until completion or cancellation.
    public final class Assign<Root, Input>: Subscriber, Cancellable {
        /// The property written with each value.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        private let slot = SubscriptionSlot()
        private let root: LockedState<Root?>

        /// Creates a subscriber that writes values to `object[keyPath: keyPath]`.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            self.root = LockedState(object)
            self.keyPath = keyPath
        }

        /// Stores the subscription and requests unlimited values.
        public func receive(subscription: any Subscription) {
            guard slot.accept(subscription) else { return subscription.cancel() }
            subscription.request(.unlimited)
        }

        /// Writes the value to the property, unless the subscriber has ended.
        public func receive(_ value: Input) -> Subscribers.Demand {
            if slot.isSubscribed, let object = root.withLock({ $0 }) {
                object[keyPath: keyPath] = value
            }
            return .none
        }

        /// Lets go of the object and the subscription.
        public func receive(completion: Subscribers.Completion<Never>) {
            _ = slot.terminate()
            root.withLock { $0 = nil }
        }

        /// Cancels the subscription and lets go of the object.
        public func cancel() {
            let subscription = slot.terminate().subscription
            root.withLock { $0 = nil }
            subscription?.cancel()
        }
    }
}

extension Publisher where Failure == Never {
    /// Writes each value to a property of an object, asking for unlimited values.
    ///
    /// The object is held until the publisher completes or the returned cancellable is cancelled.
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}
