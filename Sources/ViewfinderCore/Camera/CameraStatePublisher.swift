import ViewfinderReactive
import ViewfinderSystem

/// A publisher of some state of a camera: the state as it is when a subscriber first asks, then each change.
///
/// The publisher observes the camera only while a subscriber wants values: it adds its observer at the first demand
/// and removes it when the subscription is cancelled. It never buffers: a change that arrives while the subscriber
/// has no demand marks the state as changed, and the subscriber gets the state as it is then when it next asks.
/// Values go to the subscriber one at a time, on the thread that reported the change or that asked for values.
///
/// ``TypedCameraProperty`` and ``Camera`` make these publishers; camera implementations can make their own for
/// state they observe:
///
/// ```swift
/// let batteryPublisher = CameraStatePublisher(
///     observe: { changed in camera.addBatteryObserver { _ in changed() } },
///     read: { camera.batteryWarning })
/// ```
public struct CameraStatePublisher<Output>: Publisher {
    /// State publishers never fail.
    public typealias Failure = Never

    private let observe: @Sendable (@escaping @Sendable () -> Void) -> ObservationToken
    private let read: @Sendable () -> Output

    /// Creates a publisher of the state that `read` returns.
    ///
    /// - Parameters:
    ///   - observe: Adds an observer that calls its argument after each change, and returns its token.
    ///   - read: Returns the state as it is now.
    public init(
        observe: @escaping @Sendable (_ changed: @escaping @Sendable () -> Void) -> ObservationToken,
        read: @escaping @Sendable () -> Output
    ) {
        self.observe = observe
        self.read = read
    }

    /// Attaches a subscriber; nothing is observed until it asks for values.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: CameraStateSubscription(downstream: subscriber, observe: observe, read: read))
    }
}

/// What a state observer tells a subscription, without the subscription's generic type, so that the observer's
/// closure captures no metatype.
private protocol CameraStateChangeReceiver: AnyObject, Sendable {
    func stateChanged()
}

/// One subscriber's subscription to a ``CameraStatePublisher``.
///
/// `@unchecked Sendable`: all mutable state is behind the lock, and the subscriber is called from the threads that
/// report changes, as publishers do, outside the lock and one call at a time.
private final class CameraStateSubscription<Downstream: Subscriber>: Subscription, CameraStateChangeReceiver,
    @unchecked Sendable
where Downstream.Failure == Never {
    /// The subscriber, which crosses threads by the publisher contract although its type need not be `Sendable`.
    private struct DownstreamReference: @unchecked Sendable {
        let subscriber: Downstream
    }

    private struct State {
        var downstream: DownstreamReference?
        var demand = Subscribers.Demand.none
        var token: ObservationToken?
        var isObserving = false
        /// The state changed since the subscriber last received it (or has never received it).
        var isStale = true
        var isDelivering = false
    }

    private let state: Locked<State>
    private let observe: @Sendable (@escaping @Sendable () -> Void) -> ObservationToken
    private let read: @Sendable () -> Downstream.Input

    init(
        downstream: Downstream,
        observe: @escaping @Sendable (@escaping @Sendable () -> Void) -> ObservationToken,
        read: @escaping @Sendable () -> Downstream.Input
    ) {
        self.state = Locked(State(downstream: DownstreamReference(subscriber: downstream)))
        self.observe = observe
        self.read = read
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else { return }
        let startsObserving = state.withLock { state in
            guard state.downstream != nil else { return false }
            state.demand += demand
            defer { state.isObserving = true }
            return !state.isObserving
        }
        if startsObserving {
            let receiver: any CameraStateChangeReceiver = self
            let token = observe { [weak receiver] in receiver?.stateChanged() }
            let cancelled = state.withLock { state in
                state.token = token
                return state.downstream == nil
            }
            if cancelled {
                token.cancel()
            }
        }
        deliverWhileWanted()
    }

    func cancel() {
        let token = state.withLock { state in
            state.downstream = nil
            defer { state.token = nil }
            return state.token
        }
        token?.cancel()
    }

    func stateChanged() {
        state.withLock { $0.isStale = true }
        deliverWhileWanted()
    }

    /// Delivers the current state while it is stale and wanted; a thread already delivering does it instead.
    private func deliverWhileWanted() {
        while true {
            let downstream = state.withLock { state -> DownstreamReference? in
                guard !state.isDelivering, state.isStale, state.demand > 0, let downstream = state.downstream else {
                    return nil
                }
                state.isDelivering = true
                state.isStale = false
                state.demand -= 1
                return downstream
            }
            guard let downstream else { return }
            let more = downstream.subscriber.receive(read())
            state.withLock { state in
                state.isDelivering = false
                if state.downstream != nil {
                    state.demand += more
                }
            }
        }
    }
}
