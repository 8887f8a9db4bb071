/// A publisher that delivers no values and, optionally, finishes at once.
public struct Empty<Output, Failure: Error>: Publisher {
    /// True to finish as soon as a subscriber attaches; false to never finish.
    public let completeImmediately: Bool

    /// Creates an empty publisher.
    public init(completeImmediately: Bool = true) {
        self.completeImmediately = completeImmediately
    }

    /// Creates an empty publisher with explicit value and failure types.
    public init(completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type) {
        self.init(completeImmediately: completeImmediately)
    }

    /// Attaches a subscriber and, when `completeImmediately`, finishes it.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        if completeImmediately {
            subscriber.receive(completion: .finished)
        }
    }
}

extension Empty: Sendable {}

extension Empty: Equatable {}
