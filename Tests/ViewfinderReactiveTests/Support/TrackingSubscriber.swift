import ViewfinderReactive
import ViewfinderSystem

/// A subscriber that records every event it receives and answers values with a chosen demand.
final class TrackingSubscriber<Input, Failure: Error>: Subscriber, Sendable {
    /// One recorded event.
    enum Event {
        case subscription
        case value(Input)
        case completion(Subscribers.Completion<Failure>)
    }

    private struct State {
        var events: [Event] = []
        var subscription: (any Subscription)?
    }

    private let state = Locked(Unchecked(State()))
    private let onSubscription: Unchecked<(any Subscription) -> Void>
    private let onValue: Unchecked<(Input) -> Subscribers.Demand>

    /// Creates a subscriber; by default it asks for nothing and answers every value with `.none`.
    init(
        receiveSubscription: @escaping (any Subscription) -> Void = { _ in },
        receiveValue: @escaping (Input) -> Subscribers.Demand = { _ in .none }
    ) {
        onSubscription = Unchecked(receiveSubscription)
        onValue = Unchecked(receiveValue)
    }

    /// Creates a subscriber that requests `demand` when subscribed and answers every value with `answer`, raising
    /// `delivered` (if given) after recording each value.
    convenience init(demand: Subscribers.Demand, answer: Subscribers.Demand = .none, raising delivered: Signal? = nil) {
        self.init(
            receiveSubscription: { $0.request(demand) },
            receiveValue: { _ in
                delivered?.raise()
                return answer
            }
        )
    }

    /// Everything received so far.
    var events: [Event] { state.withLock { $0.value.events } }

    /// The values received so far.
    var values: [Input] {
        events.compactMap {
            guard case .value(let value) = $0 else { return nil }
            return value
        }
    }

    /// The completions received so far.
    var completions: [Subscribers.Completion<Failure>] {
        events.compactMap {
            guard case .completion(let completion) = $0 else { return nil }
            return completion
        }
    }

    /// The subscription received, if any.
    var subscription: (any Subscription)? { state.withLock { $0.value.subscription } }

    func receive(subscription: any Subscription) {
        state.withLock {
            $0.value.events.append(.subscription)
            $0.value.subscription = subscription
        }
        onSubscription.value(subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        state.withLock { $0.value.events.append(.value(input)) }
        return onValue.value(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        state.withLock { $0.value.events.append(.completion(completion)) }
    }
}

extension TrackingSubscriber.Event: Equatable where Input: Equatable, Failure: Equatable {}

extension TrackingSubscriber.Event: CustomStringConvertible {
    var description: String {
        switch self {
        case .subscription: "subscription"
        case .value(let value): "value(\(value))"
        case .completion(.finished): "finished"
        case .completion(.failure(let error)): "failure(\(error))"
        }
    }
}

/// A value the tests hand across threads on purpose, as publishers do.
struct Unchecked<Value>: @unchecked Sendable {
    var value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// The error the tests fail publishers with.
struct TestError: Error, Equatable {
    var code = 1
}
