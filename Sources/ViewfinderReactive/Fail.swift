/// A publisher that fails at once with an error.
public struct Fail<Output, Failure: Error>: Publisher {
    /// The error each subscriber receives.
    public let error: Failure

    /// Creates a publisher that fails with `error`.
    public init(error: Failure) {
        self.error = error
    }

    /// Creates a publisher with an explicit value type that fails with `failure`.
    public init(outputType: Output.Type, failure: Failure) {
        self.init(error: failure)
    }

    /// Attaches a subscriber and fails it.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
    }
}

extension Fail: Sendable where Failure: Sendable {}

extension Fail: Equatable where Failure: Equatable {}
