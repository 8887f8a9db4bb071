import ViewfinderReactive
import ViewfinderSystem

/// A publisher that records the requests and cancellations of its subscription and lets a test push events
/// straight to the subscriber, regardless of demand.
final class TrackingPublisher<Output, Failure: Error>: Publisher, Sendable {
    /// One recorded call on the subscription.
    enum Event: Equatable {
        case request(Subscribers.Demand)
        case cancel
    }

    private struct State {
        var subscriber: AnySubscriber<Output, Failure>?
        var events: [Event] = []
    }

    private let state = Locked(Unchecked(State()))

    init() {}

    /// The requests and cancellations so far.
    var events: [Event] { state.withLock { $0.value.events } }

    /// The sum of the demand requested so far.
    var requested: Subscribers.Demand {
        events.reduce(.none) { total, event in
            guard case .request(let demand) = event else { return total }
            return total + demand
        }
    }

    /// True once the subscription was cancelled.
    var isCancelled: Bool { events.contains(.cancel) }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        state.withLock { $0.value.subscriber = AnySubscriber(subscriber) }
        subscriber.receive(subscription: TrackingSubscription(publisher: self))
    }

    /// Sends a value to the subscriber and returns its answer.
    @discardableResult
    func send(_ value: Output) -> Subscribers.Demand {
        state.withLock { $0.value.subscriber }?.receive(value) ?? .none
    }

    /// Sends a completion to the subscriber.
    func send(completion: Subscribers.Completion<Failure>) {
        state.withLock { $0.value.subscriber }?.receive(completion: completion)
    }

    fileprivate func record(_ event: Event) {
        state.withLock { $0.value.events.append(event) }
    }
}

private struct TrackingSubscription<Output, Failure: Error>: Subscription {
    let publisher: TrackingPublisher<Output, Failure>

    func request(_ demand: Subscribers.Demand) {
        publisher.record(.request(demand))
    }

    func cancel() {
        publisher.record(.cancel)
    }
}
