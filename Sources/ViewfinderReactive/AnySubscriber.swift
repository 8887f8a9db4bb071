/// A subscriber that hides the type of the subscriber it wraps, or forwards to closures.
///
/// Wrapping costs one closure call per value; the wrapped subscriber's own code runs at full speed.
public struct AnySubscriber<Input, Failure: Error>: Subscriber {
    /// The closures that stand for the wrapped subscriber.
    @usableFromInline
    final class Box {
        @usableFromInline let receiveSubscription: (any Subscription) -> Void
        @usableFromInline let receiveValue: (Input) -> Subscribers.Demand
        @usableFromInline let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

        @inlinable
        init(
            receiveSubscription: @escaping (any Subscription) -> Void,
            receiveValue: @escaping (Input) -> Subscribers.Demand,
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
        ) {
            self.receiveSubscription = receiveSubscription
            self.receiveValue = receiveValue
            self.receiveCompletion = receiveCompletion
        }
    }

    @usableFromInline let box: Box

    /// Wraps a subscriber.
    @inlinable
    public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
        if let wrapped = subscriber as? AnySubscriber {
            self = wrapped
            return
        }
        box = Box(
            receiveSubscription: { subscriber.receive(subscription: $0) },
            receiveValue: { subscriber.receive($0) },
            receiveCompletion: { subscriber.receive(completion: $0) }
        )
    }

    /// Wraps a subject: values and completion are sent to it, and the subject decides how much to request.
    public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
        box = Box(
            receiveSubscription: { subject.send(subscription: $0) },
            receiveValue: {
                subject.send($0)
                return .none
            },
            receiveCompletion: { subject.send(completion: $0) }
        )
    }

    /// Forwards to closures; a missing closure ignores its event, and a missing `receiveValue` asks for nothing more.
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        box = Box(
            receiveSubscription: receiveSubscription ?? { _ in },
            receiveValue: receiveValue ?? { _ in .none },
            receiveCompletion: receiveCompletion ?? { _ in }
        )
    }

    /// Forwards the subscription.
    @inlinable
    public func receive(subscription: any Subscription) {
        box.receiveSubscription(subscription)
    }

    /// Forwards a value and returns the wrapped subscriber's answer.
    @inlinable
    public func receive(_ input: Input) -> Subscribers.Demand {
        box.receiveValue(input)
    }

    /// Forwards the completion.
    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        box.receiveCompletion(completion)
    }
}
