import ViewfinderSystem

/// A thread-safe set of observers that are called one at a time, in order, outside any lock.
///
/// ``TypedCameraProperty`` uses a registry for its observers; camera implementations use them for connection and
/// recording state. Any thread may ``notify(_:)``. The first notifier delivers to every observer on its own thread;
/// events that arrive meanwhile are merged with `coalescing` into one pending event, which that same thread
/// delivers next. So observers are never called concurrently or re-entrantly, always see events in order, and at
/// most one event waits, however slow an observer is. An observer may add or remove observers, or cause new events,
/// from inside its call.
///
/// ```swift
/// let registry = CameraObserverRegistry<CameraConnectionState>()
/// let token = registry.addObserver { state in print("now \(state)") }
/// registry.notify(.connecting)
/// registry.notify(.connected)
/// ```
public final class CameraObserverRegistry<Event: Sendable>: Sendable {
    private typealias Observer = @Sendable (Event) -> Void

    private struct State {
        var observers: [UInt64: Observer] = [:]
        var nextID: UInt64 = 0
        var isDelivering = false
        var pendingEvent: Event?
    }

    private let state = Locked(State())
    private let coalesce: @Sendable (Event, Event) -> Event

    /// Creates an empty registry.
    ///
    /// - Parameter coalescing: Merges an event that waits with one that arrives after it; by default the later
    ///   event replaces the earlier, which suits events that carry a whole state.
    public init(coalescing: @escaping @Sendable (_ waiting: Event, _ arriving: Event) -> Event = { $1 }) {
        self.coalesce = coalescing
    }

    /// Whether any observer is registered.
    public var hasObservers: Bool {
        state.withLock { !$0.observers.isEmpty }
    }

    /// Adds an observer, called for every event from the next one on, until the returned token is released or
    /// cancelled.
    ///
    /// Once the token is cancelled, the observer is not called again, except in a call another thread had already
    /// begun: cancelling never waits for a call under way, so it is safe from inside the observer itself.
    public func addObserver(_ observer: @escaping @Sendable (Event) -> Void) -> ObservationToken {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            state.observers[state.nextID] = observer
            return state.nextID
        }
        return ObservationToken { [weak self] in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
    }

    /// Delivers an event to every observer, now on this thread, or soon on the thread already delivering.
    public func notify(_ event: Event) {
        var next: (event: Event, ids: [UInt64])? = state.withLock { state in
            guard !state.isDelivering else {
                state.pendingEvent = state.pendingEvent.map { coalesce($0, event) } ?? event
                return nil
            }
            state.isDelivering = true
            return (event, state.observers.keys.sorted())
        }
        while let (event, ids) = next {
            for id in ids {
                // Looked up again for each call, so an observer removed meanwhile is not called.
                state.withLock { $0.observers[id] }?(event)
            }
            next = state.withLock { state in
                guard let pending = state.pendingEvent else {
                    state.isDelivering = false
                    return nil
                }
                state.pendingEvent = nil
                return (pending, state.observers.keys.sorted())
            }
        }
    }
}
