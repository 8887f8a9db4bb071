import Synchronization

/// Where a subscriber keeps its one subscription: awaiting it, holding it, or done.
///
/// Subscribers built on it (sink, assign, sink with ready handler) accept a single subscription, cancel any
/// other, and let go of it on completion or cancellation so nothing keeps the upstream alive.
@usableFromInline
struct SubscriptionSlot: ~Copyable, Sendable {
    @usableFromInline
    enum Status {
        case awaiting
        case subscribed(any Subscription)
        case terminated
    }

    @usableFromInline let status = LockedState(Status.awaiting)
    /// True while subscribed; cheap to read for every value.
    @usableFromInline let subscribed = Atomic(false)

    @inlinable
    init() {}

    /// Stores the first subscription and returns true; returns false for any later one.
    @inlinable
    func accept(_ subscription: any Subscription) -> Bool {
        status.withLock { status in
            guard case .awaiting = status else { return false }
            status = .subscribed(subscription)
            subscribed.store(true, ordering: .releasing)
            return true
        }
    }

    /// True between accepting the subscription and the end.
    @inlinable
    var isSubscribed: Bool { subscribed.load(ordering: .acquiring) }

    /// The subscription, while subscribed.
    @inlinable
    var subscription: (any Subscription)? {
        status.withLock { status in
            guard case .subscribed(let subscription) = status else { return nil }
            return subscription
        }
    }

    /// Ends the subscription; returns what was held, and whether this call ended it.
    @inlinable
    func terminate() -> (subscription: (any Subscription)?, ended: Bool) {
        status.withLock { status in
            defer {
                status = .terminated
                subscribed.store(false, ordering: .releasing)
            }
            switch status {
            case .awaiting: return (nil, true)
            case .subscribed(let subscription): return (subscription, true)
            case .terminated: return (nil, false)
            }
        }
    }
}
