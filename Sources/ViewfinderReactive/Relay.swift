/// A subscriber that hands each value to a closure and passes the subscription and completion straight on.
///
/// Operators that only transform, drop or observe values are relays: demand and cancellation go directly from
/// the subscriber to the upstream, with no state or lock in between. The closure returns the demand to report
/// upstream, `.max(1)` for a value it dropped.
@usableFromInline
struct Relay<Input, Downstream: Subscriber>: Subscriber {
    @usableFromInline let downstream: Downstream
    @usableFromInline let receiveValue: (Input) -> Subscribers.Demand

    @inlinable
    init(_ downstream: Downstream, receiveValue: @escaping (Input) -> Subscribers.Demand) {
        self.downstream = downstream
        self.receiveValue = receiveValue
    }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        receiveValue(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        downstream.receive(completion: completion)
    }
}
