/// A publisher that delivers one value, then finishes.
public struct Just<Output>: Publisher {
    /// A `Just` cannot fail.
    public typealias Failure = Never

    /// The value delivered to each subscriber.
    public let output: Output

    /// Creates a publisher of `output`.
    public init(_ output: Output) {
        self.output = output
    }

    /// Attaches a subscriber, which receives the value once it asks for one.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        ResultSubscription.attach(subscriber, outcome: .success(output))
    }
}

extension Just: Sendable where Output: Sendable {}

extension Just: Equatable where Output: Equatable {}
