/// A publisher that you feed from outside: values and completion are pushed in with `send`.
///
/// Subjects are safe to use from any thread. Each subscriber receives the values it has demand for, one call at a
/// time, in the order its delivery accepted them.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscribers.
    func send(_ value: Output)

    /// Sends a completion to the subscribers; later values and completions are ignored.
    func send(completion: Subscribers.Completion<Failure>)

    /// Receives the subscription of a publisher that feeds this subject, and requests values from it.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends the empty value.
    public func send() {
        send(())
    }
}

extension Publisher {
    /// Feeds a subject with this publisher's values and completion until the returned cancellable is cancelled.
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where S.Output == Output, S.Failure == Failure {
        let subscriber = SubjectSubscriber(subject)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}

/// The subscriber that feeds a subject; the subject requests values through it.
final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, Sendable {
    private struct State {
        var subject: Downstream?
        var upstream: (any Subscription)?
    }

    private let state: LockedState<State>

    init(_ subject: Downstream) {
        state = LockedState(State(subject: subject))
    }

    func receive(subscription: any Subscription) {
        let subject = state.withLock { state -> Downstream? in
            guard state.subject != nil, state.upstream == nil else { return nil }
            state.upstream = subscription
            return state.subject
        }
        guard let subject else { return subscription.cancel() }
        subject.send(subscription: self)
    }

    func receive(_ input: Downstream.Output) -> Subscribers.Demand {
        state.withLock { $0.subject }?.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Downstream.Failure>) {
        let subject = state.withLock { state in
            defer { state = State() }
            return state.subject
        }
        subject?.send(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.upstream }?.request(demand)
    }

    func cancel() {
        let upstream = state.withLock { state in
            defer { state = State() }
            return state.upstream
        }
        upstream?.cancel()
    }
}
