/// A subject that passes values to its subscribers without keeping them.
///
/// A subscriber without demand when a value is sent misses that value. A subscriber that attaches after completion
/// receives the completion at once.
///
/// ```swift
/// let events = PassthroughSubject<String, Never>()
/// let cancellable = events.sink { print($0) }
/// events.send("connected")
/// ```
public final class PassthroughSubject<Output, Failure: Error>: Subject, Sendable {
    @usableFromInline let core: SubjectCore<Output, Failure>

    /// Creates a subject with no subscribers.
    @inlinable
    public init() {
        core = SubjectCore(current: nil)
    }

    /// Attaches a subscriber.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }

    /// Sends a value to every subscriber that has demand for it.
    @inlinable
    public func send(_ value: Output) {
        core.send(value)
    }

    /// Sends a completion to every subscriber, once.
    public func send(completion: Subscribers.Completion<Failure>) {
        core.finish(completion)
    }

    /// Requests unlimited values from a publisher that feeds this subject.
    public func send(subscription: any Subscription) {
        subscription.request(.unlimited)
    }
}
