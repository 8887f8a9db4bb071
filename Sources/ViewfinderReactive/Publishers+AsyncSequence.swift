extension Publishers {
    /// A publisher of an asynchronous sequence's elements that reads the sequence only as far as demand allows.
    ///
    /// Each subscriber gets its own iteration, run in a task that starts with the first request. The task waits
    /// while the subscriber has no demand, so a slow subscriber makes the sequence advance more slowly rather than
    /// buffer. The sequence's error, if any, fails the subscriber; cancelling the subscription cancels the task.
    ///
    /// ```swift
    /// let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    /// let cancellable = stream.publisher.sink { print($0) }
    /// ```
    public struct AsyncSequence<Base: Swift.AsyncSequence & Sendable>: Publisher {
        /// The sequence's element type.
        public typealias Output = Base.Element
        /// The sequence's failure type.
        public typealias Failure = Base.Failure

        /// The sequence whose elements are published.
        public let base: Base

        /// Creates a publisher of `base`'s elements.
        public init(_ base: Base) {
            self.base = base
        }

        /// Attaches a subscriber; iteration starts with its first request.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: Inner(downstream: subscriber, base: base))
        }

        /// One subscriber's iteration.
        private final class Inner<Downstream: Subscriber>: Subscription, Iteration, DemandAwaiting
        where Downstream.Input == Output, Downstream.Failure == Failure {
            private struct State {
                var downstream: Downstream?
                var demand = Subscribers.Demand.none
                /// The iteration waiting for demand.
                var waiting: CheckedContinuation<Bool, Never>?
                var task: Task<Void, Never>?
                var started = false
            }

            private let base: Base
            private let state: LockedState<State>

            init(downstream: Downstream, base: Base) {
                self.base = base
                self.state = LockedState(State(downstream: downstream))
            }

            var isAwaitingDemand: Bool { state.withLock { $0.waiting != nil } }

            func request(_ demand: Subscribers.Demand) {
                let (waiting, start) = state.withLock { state -> (CheckedContinuation<Bool, Never>?, Bool) in
                    guard state.downstream != nil, demand > 0 else { return (nil, false) }
                    state.demand += demand
                    defer {
                        state.waiting = nil
                        state.started = true
                    }
                    // A waiting iteration takes its unit of demand here, as `reserve()` would.
                    if state.waiting != nil { state.demand -= 1 }
                    return (state.waiting, !state.started)
                }
                waiting?.resume(returning: true)
                if start { self.start() }
            }

            func cancel() {
                let (task, waiting) = state.withLock { state in
                    defer { state = State(started: true) }
                    return (state.task, state.waiting)
                }
                task?.cancel()
                waiting?.resume(returning: false)
            }

            private func start() {
                let iteration: any Iteration = self
                let task = Task { await iteration.run() }
                let cancelled = state.withLock { state in
                    state.task = task
                    return state.downstream == nil
                }
                if cancelled { task.cancel() }
            }

            func run() async {
                var iterator = base.makeAsyncIterator()
                while await reserve() {
                    let element: Base.Element?
                    do {
                        element = try await iterator.next(isolation: nil)
                    } catch {
                        return finish(.failure(error))
                    }
                    guard let element else { return finish(.finished) }
                    guard let downstream = state.withLock({ $0.downstream }) else { return }
                    let more = downstream.receive(element)
                    state.withLock { $0.demand += more }
                }
            }

            /// Waits until the subscriber has demand and takes one unit of it; false once cancelled.
            private func reserve() async -> Bool {
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state -> Bool? in
                        guard state.downstream != nil else { return false }
                        guard state.demand > 0 else {
                            state.waiting = continuation
                            return nil
                        }
                        state.demand -= 1
                        return true
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            }

            private func finish(_ completion: Subscribers.Completion<Failure>) {
                let downstream = state.withLock { state in
                    defer { state = State(started: true) }
                    return state.downstream
                }
                downstream?.receive(completion: completion)
            }
        }
    }
}

/// The iteration run by a ``Publishers/AsyncSequence`` subscription's task.
private protocol Iteration: Sendable {
    /// Reads the sequence while there is demand, until it ends or is cancelled.
    func run() async
}

/// A subscription whose work waits for its subscriber's demand, which tests can see.
protocol DemandAwaiting {
    /// Whether the work waits for demand now, having read as far as the demand so far allowed.
    var isAwaitingDemand: Bool { get }
}

extension AsyncSequence where Self: Sendable {
    /// A publisher of this sequence's elements that reads the sequence only as far as demand allows.
    public var publisher: Publishers.AsyncSequence<Self> {
        Publishers.AsyncSequence(self)
    }
}
