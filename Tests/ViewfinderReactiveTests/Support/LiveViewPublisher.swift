import Dispatch
import ViewfinderReactive
import ViewfinderSystem

/// A live view frame: its number.
struct Frame: Sendable, Equatable {
    let number: Int
}

/// A stand-in for a camera's live view publisher: it fetches one frame per unit of demand, on its own queue, and
/// warns once when a subscriber asks for unlimited frames — the way a custom publisher learns about demand.
final class LiveViewPublisher: Publisher, Sendable {
    typealias Output = Frame
    typealias Failure = Never

    private struct State {
        var fetched = 0
        var warnings: [String] = []
        var requests: [Subscribers.Demand] = []
    }

    private let state = Locked(State())
    private let fetchQueue = DispatchQueue(label: "live-view-fetch")
    /// Stop after this many frames, finishing the subscriber.
    private let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// The number of frames fetched so far.
    var fetched: Int { state.withLock { $0.fetched } }
    /// The warnings printed so far.
    var warnings: [String] { state.withLock { $0.warnings } }
    /// Every demand a subscription asked for.
    var requests: [Subscribers.Demand] { state.withLock { $0.requests } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Frame, S.Failure == Never {
        subscriber.receive(subscription: FrameSubscription(publisher: self, subscriber: AnySubscriber(subscriber)))
    }

    /// Records a request and returns a warning the first time a subscriber asks for unlimited frames.
    fileprivate func record(_ demand: Subscribers.Demand) {
        state.withLock { state in
            state.requests.append(demand)
            if demand == .unlimited && state.warnings.isEmpty {
                state.warnings.append("Live view subscriber requested unlimited frames; use sinkWithReadyHandler.")
            }
        }
    }

    /// Fetches the next frame, or nil once the limit is reached.
    fileprivate func fetch() -> Frame? {
        state.withLock { state in
            guard state.fetched < limit else { return nil }
            state.fetched += 1
            return Frame(number: state.fetched)
        }
    }

    /// One subscriber's frames: fetched on the fetch queue, one at a time, as long as there is demand.
    private final class FrameSubscription: Subscription, @unchecked Sendable {
        private struct State {
            var demand = Subscribers.Demand.none
            var fetching = false
            var subscriber: AnySubscriber<Frame, Never>?
        }

        private let publisher: LiveViewPublisher
        private let state: Locked<Unchecked<State>>

        init(publisher: LiveViewPublisher, subscriber: AnySubscriber<Frame, Never>) {
            self.publisher = publisher
            self.state = Locked(Unchecked(State(subscriber: subscriber)))
        }

        func request(_ demand: Subscribers.Demand) {
            publisher.record(demand)
            let start = state.withLock { state -> Bool in
                state.value.demand += demand
                defer { state.value.fetching = true }
                return !state.value.fetching
            }
            if start { publisher.fetchQueue.async { self.fetchWhileDemanded() } }
        }

        func cancel() {
            state.withLock { $0.value.subscriber = nil }
        }

        private func fetchWhileDemanded() {
            while true {
                let subscriber = state.withLock { state -> AnySubscriber<Frame, Never>? in
                    guard state.value.demand > 0, let subscriber = state.value.subscriber else {
                        state.value.fetching = false
                        return nil
                    }
                    state.value.demand -= 1
                    return subscriber
                }
                guard let subscriber else { return }
                guard let frame = publisher.fetch() else {
                    state.withLock { $0.value.subscriber = nil }
                    return subscriber.receive(completion: .finished)
                }
                let more = subscriber.receive(frame)
                state.withLock { $0.value.demand += more }
            }
        }
    }
}
