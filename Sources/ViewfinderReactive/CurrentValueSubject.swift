/// A subject that keeps its newest value and gives it to each subscriber that asks.
///
/// A new subscriber receives the current value as soon as it has demand. A subscriber that had no demand when
/// values were sent receives the newest of them once it asks: it may skip values, but never ends up behind.
///
/// ```swift
/// let iso = CurrentValueSubject<Int, Never>(100)
/// let cancellable = iso.sink { print("ISO \($0)") }  // ISO 100
/// iso.value = 200  // ISO 200
/// ```
public final class CurrentValueSubject<Output, Failure: Error>: Subject, Sendable {
    @usableFromInline let core: SubjectCore<Output, Failure>

    /// Creates a subject holding `value`.
    @inlinable
    public init(_ value: Output) {
        core = SubjectCore(current: value)
    }

    /// The current value; setting it sends the new value to the subscribers (ignored after completion).
    public var value: Output {
        get { core.state.withLock { $0.current! } }
        set { send(newValue) }
    }

    /// Attaches a subscriber, which receives the current value when it first has demand.
    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.attach(subscriber)
    }

    /// Replaces the current value and sends it to the subscribers.
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
