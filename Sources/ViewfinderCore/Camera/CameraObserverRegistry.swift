import ViewfinderSystem

/// A thread-safe set of observers that are called one at a time, in order, outside any lock.
///
/// ``TypedCameraProperty`` uses a registry for its observers; camera implementations use them for connection and
/// recording state. Any thread may ``notify(_:)``. The first notifier delivers to every observer on its own thread;
/// events that arrive meanwhile are merged with `coalescing` into one pending event, which that same thread
/// delivers next. So observers are never called concurrently or re-entrantly, always see events in order, and at
/// most one event waits, however slow an observer is. A registry of lists made with ``init(keepingNewest:)`` keeps
/// their items in order instead, up to a bound: beyond it the oldest waiting items are dropped and counted in
/// ``droppedCount``. An observer may add or remove observers, or cause new events, from inside its call.
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
        var droppedCount = 0
    }

    private let state = Locked(State())
    /// Merges the event that waits, if any, with one that arrives, saying how many items the merge dropped.
    private let coalesce: @Sendable (_ waiting: Event?, _ arriving: Event) -> (event: Event, dropped: Int)

    /// Creates an empty registry.
    ///
    /// - Parameter coalescing: Merges an event that waits with one that arrives after it; by default the later
    ///   event replaces the earlier, which suits events that carry a whole state.
    public init(coalescing: @escaping @Sendable (_ waiting: Event, _ arriving: Event) -> Event = { $1 }) {
        self.coalesce = { waiting, arriving in (waiting.map { coalescing($0, arriving) } ?? arriving, 0) }
    }

    /// Creates an empty registry of events that are lists, whose items wait in order while an observer is busy, at
    /// most `limit` of them: beyond it the oldest waiting items are dropped and counted in ``droppedCount``.
    ///
    /// - Parameter limit: The most items that wait; at least 1.
    public init<Item>(keepingNewest limit: Int) where Event == [Item] {
        precondition(limit > 0, "a registry must keep at least one waiting item")
        self.coalesce = { waiting, arriving in
            let merged = (waiting ?? []) + arriving
            let excess = max(0, merged.count - limit)
            return (Array(merged.dropFirst(excess)), excess)
        }
    }

    /// How many waiting items were dropped, oldest first, because observers were busy while more than the limit of
    /// ``init(keepingNewest:)`` arrived; always 0 for a registry that coalesces.
    public var droppedCount: Int {
        state.withLock { $0.droppedCount }
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
                let (merged, dropped) = coalesce(state.pendingEvent, event)
                state.pendingEvent = merged
                state.droppedCount += dropped
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
