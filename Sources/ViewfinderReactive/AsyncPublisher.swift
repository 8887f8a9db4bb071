/// An asynchronous sequence of a publisher's values that asks for one value per call to `next()`.
///
/// Each iterator subscribes once and requests a single value whenever it waits for one, so the publisher never
/// runs ahead of the loop. A failure is thrown once, after which the sequence ends. Cancelling the iterating task
/// or dropping the iterator cancels the subscription.
///
/// ```swift
/// for await value in subject.values {
///     print(value)
/// }
/// ```
public struct AsyncPublisher<Upstream: Publisher>: AsyncSequence {
    /// The publisher's value type.
    public typealias Element = Upstream.Output
    /// The publisher's failure type, thrown by the iterator.
    public typealias Failure = Upstream.Failure

    /// The publisher iterated over.
    public let upstream: Upstream

    /// Creates a sequence of `upstream`'s values.
    public init(_ upstream: Upstream) {
        self.upstream = upstream
    }

    /// Subscribes to the publisher and returns an iterator over its values.
    public func makeAsyncIterator() -> Iterator {
        let inner = Inner()
        upstream.subscribe(inner)
        return Iterator(owner: Owner(inner: inner))
    }

    /// The iterator of an ``AsyncPublisher``.
    public struct Iterator: AsyncIteratorProtocol {
        /// The publisher's failure type.
        public typealias Failure = Upstream.Failure

        private let owner: Owner

        fileprivate init(owner: Owner) {
            self.owner = owner
        }

        /// Requests one value and waits for it; nil once the publisher has finished or the task is cancelled.
        public mutating func next() async throws(Failure) -> Element? {
            try await next(isolation: nil)
        }

        /// Requests one value and waits for it, on the caller's actor; nil once the publisher has finished or
        /// the task is cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
            let inner = owner.inner
            let cancellable: any Cancellable & Sendable = inner
            let outcome = await withTaskCancellationHandler {
                await withCheckedContinuation(isolation: actor) { inner.wait($0) }
            } onCancel: {
                cancellable.cancel()
            }
            return try outcome.value.get()
        }
    }

    /// Cancels the subscription when the last copy of the iterator goes away.
    fileprivate final class Owner {
        let inner: Inner

        init(inner: Inner) {
            self.inner = inner
        }

        deinit {
            inner.cancel()
        }
    }

    fileprivate typealias Continuation = CheckedContinuation<Unchecked<Result<Element?, Failure>>, Never>

    /// The subscriber behind an iterator: at most one request outstanding, at most one value held.
    fileprivate final class Inner: Subscriber, Cancellable, Sendable {
        private enum Ending {
            case finished
            case failed(Failure)
        }

        private struct State {
            var subscription: (any Subscription)?
            var waiting: Continuation?
            /// A value that arrived while nobody waited.
            var held: Element?
            var ending: Ending?
        }

        /// What a waiting `next()` leads to once the lock is released.
        private enum WaitAction {
            case resume(Result<Element?, Failure>)
            case request(any Subscription)
            case none
        }

        private let state = LockedState(State())

        /// Registers a waiting `next()`: answers at once from a held value or the ending, else requests a value.
        func wait(_ continuation: Continuation) {
            let action = state.withLock { state -> WaitAction in
                if let held = state.held {
                    state.held = nil
                    return .resume(.success(held))
                }
                switch state.ending {
                case .failed(let error):
                    state.ending = .finished
                    return .resume(.failure(error))
                case .finished:
                    return .resume(.success(nil))
                case nil:
                    state.waiting = continuation
                    return state.subscription.map(WaitAction.request) ?? .none
                }
            }
            switch action {
            case .resume(let outcome): continuation.resume(returning: Unchecked(outcome))
            case .request(let subscription): subscription.request(.max(1))
            case .none: break
            }
        }

        func receive(subscription: any Subscription) {
            let accepted = state.withLock { state -> (accepted: Bool, request: Bool) in
                guard state.subscription == nil, state.ending == nil else { return (false, false) }
                state.subscription = subscription
                return (true, state.waiting != nil)
            }
            if !accepted.accepted { subscription.cancel() }
            if accepted.request { subscription.request(.max(1)) }
        }

        func receive(_ input: Element) -> Subscribers.Demand {
            let waiting = state.withLock { state in
                defer { state.waiting = nil }
                if state.waiting == nil, state.ending == nil { state.held = input }
                return state.waiting
            }
            waiting?.resume(returning: Unchecked(.success(input)))
            return .none
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            let (waiting, outcome) = state.withLock { state -> (Continuation?, Result<Element?, Failure>) in
                state.subscription = nil
                defer { state.waiting = nil }
                switch completion {
                case .failure(let error) where state.waiting != nil:
                    state.ending = .finished
                    return (state.waiting, .failure(error))
                case .failure(let error):
                    state.ending = .failed(error)
                case .finished:
                    state.ending = .finished
                }
                return (state.waiting, .success(nil))
            }
            waiting?.resume(returning: Unchecked(outcome))
        }

        func cancel() {
            let (subscription, waiting) = state.withLock { state in
                defer {
                    state = State(ending: .finished)
                }
                return (state.subscription, state.waiting)
            }
            subscription?.cancel()
            waiting?.resume(returning: Unchecked(.success(nil)))
        }
    }
}

extension AsyncPublisher: Sendable where Upstream: Sendable {}

extension Publisher {
    /// This publisher's values as an asynchronous sequence that asks for one value per iteration.
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}
