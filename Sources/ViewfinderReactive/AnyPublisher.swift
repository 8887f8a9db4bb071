/// A publisher that hides the type of the publisher it wraps.
///
/// Return an `AnyPublisher` from an API to keep the operator chain behind it private. Subscribing goes through
/// one closure call and each value through one more; the wrapped chain itself runs at full speed.
public struct AnyPublisher<Output, Failure: Error>: Publisher {
    @usableFromInline let subscribeBody: (AnySubscriber<Output, Failure>) -> Void

    /// Wraps a publisher.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let wrapped = publisher as? AnyPublisher {
            self = wrapped
            return
        }
        subscribeBody = { publisher.receive(subscriber: $0) }
    }

    /// Attaches a subscriber to the wrapped publisher.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribeBody(AnySubscriber(subscriber))
    }
}

extension Publisher {
    /// Wraps this publisher in an ``AnyPublisher``, hiding its type.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}
