/// A type that receives values and a completion from a publisher.
///
/// A subscriber gets exactly one ``Subscription`` and asks for values through it. Each value it is given returns
/// how many more values it wants in addition to what it already asked for (often ``Subscribers/Demand/none``).
/// A publisher never calls one subscriber from two threads at once.
public protocol Subscriber<Input, Failure> {
    /// The kind of values this subscriber receives.
    associatedtype Input

    /// The kind of error this subscriber may receive.
    associatedtype Failure: Error

    /// Receives the subscription through which the subscriber asks for values and cancels.
    func receive(subscription: any Subscription)

    /// Receives one value and returns how many more values the subscriber wants.
    func receive(_ input: Input) -> Subscribers.Demand

    /// Receives the end of the stream: normal completion or a failure. Nothing follows it.
    func receive(completion: Subscribers.Completion<Failure>)
}

/// The namespace of subscriber types and the types that describe a subscription's life: demand and completion.
public enum Subscribers {}
