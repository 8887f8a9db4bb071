/// The connection between a publisher and one subscriber.
///
/// The subscriber asks for values with ``request(_:)`` and ends the connection with ``Cancellable/cancel()``.
/// Both are safe to call from any thread, including from within the subscriber's own callbacks. Cancelling frees
/// what the publisher holds for this subscriber; values already on their way may still arrive, nothing else does.
public protocol Subscription: Cancellable {
    /// Asks the publisher for up to `demand` more values, added to any demand not yet satisfied.
    ///
    /// A publisher that wants to know whether a subscriber paces itself can check for
    /// ``Subscribers/Demand/unlimited`` here: `sink` and `assign` ask for it, `sinkWithReadyHandler` asks for one
    /// value at a time. The operators in this module pass demand on unchanged.
    func request(_ demand: Subscribers.Demand)
}

/// The namespace of ready-made subscriptions.
public enum Subscriptions {
    /// A subscription that ignores requests and cancellation, for publishers that complete immediately.
    public static var empty: any Subscription { EmptySubscription() }
}

/// The subscription behind ``Subscriptions/empty``.
struct EmptySubscription: Subscription {
    func request(_ demand: Subscribers.Demand) {}

    func cancel() {}
}
