/// The state of delivering values to one subscriber: its demand, one delivery at a time, completion once.
///
/// A value offered while another thread (or the subscriber itself, re-entrantly) is delivering waits in a queue
/// and is delivered by that thread in order. Only values within the subscriber's demand are accepted, so the queue
/// never holds more than the subscriber asked for. Every transition returns an ``Action`` that the caller performs
/// after releasing its lock, with ``run(_:to:delivered:)``.
///
/// The state owns the subscriber. While a delivery runs, the subscriber stays owned here even if it cancels
/// (it is kept in `retired` and handed back to the delivering thread), so the delivering thread can call it
/// through an unretained reference.
@usableFromInline
struct Delivery<Input, Failure: Error> {
    @usableFromInline typealias Downstream = AnySubscriber<Input, Failure>
    @usableFromInline typealias Completion = Subscribers.Completion<Failure>

    /// What to do once the lock is released.
    @usableFromInline
    enum Action {
        /// Nothing.
        case none
        /// Deliver the value, then report the subscriber's answer to ``Delivery/delivered(_:)``.
        case deliver(Input)
        /// Deliver the completion; the delivery is over.
        case complete(Downstream, Completion)
        /// Let go of a subscriber that cancelled during the delivery.
        case release(Downstream)
    }

    /// The subscriber, until completion or cancellation.
    @usableFromInline var downstream: Downstream?
    /// A subscriber that cancelled while a delivery to it was running.
    @usableFromInline var retired: Downstream?
    /// Values the subscriber asked for and has not received.
    @usableFromInline var demand = Subscribers.Demand.none
    /// True while a thread is inside the subscriber's `receive(_:)`.
    @usableFromInline var delivering = false
    /// Values accepted while another delivery was running.
    @usableFromInline var queued = FIFO<Input>()
    /// The newest value offered without demand, kept only when `keepsLatest`.
    @usableFromInline var undelivered: Input?
    /// True to keep the newest value offered without demand and deliver it when demand arrives.
    @usableFromInline let keepsLatest: Bool
    /// A completion waiting for the running delivery and the queued values.
    @usableFromInline var completion: Completion?

    @inlinable
    init(downstream: Downstream, keepsLatest: Bool) {
        self.downstream = downstream
        self.keepsLatest = keepsLatest
    }

    /// True until the subscriber has been given (or promised) its completion, or has cancelled.
    @inlinable
    var isActive: Bool { downstream != nil && completion == nil }

    /// Offers a value: delivered if the subscriber has demand, queued behind a running delivery, else dropped
    /// (or kept as the newest undelivered value when `keepsLatest`).
    @inlinable
    mutating func offer(_ value: Input) -> Action {
        guard downstream != nil, completion == nil else { return .none }
        guard demand > 0 else {
            if keepsLatest { undelivered = value }
            return .none
        }
        demand -= 1
        if keepsLatest { undelivered = nil }
        if delivering {
            queued.append(value)
            return .none
        }
        delivering = true
        return .deliver(value)
    }

    /// Adds demand, which may release the newest undelivered value.
    @inlinable
    mutating func request(_ more: Subscribers.Demand) -> Action {
        guard isActive, more > 0 else { return .none }
        demand += more
        return delivering ? .none : next()
    }

    /// Ends a delivery, adding the demand the subscriber returned, and picks what comes next.
    @inlinable
    mutating func delivered(_ more: Subscribers.Demand) -> Action {
        delivering = false
        if let retired {
            self.retired = nil
            return .release(retired)
        }
        if more != .none { demand += more }
        return next()
    }

    /// Delivers a completion once, after the running delivery and the queued values; drops the undelivered value.
    @inlinable
    mutating func finish(_ completion: Completion) -> Action {
        guard isActive else { return .none }
        undelivered = nil
        self.completion = completion
        return delivering ? .none : next()
    }

    /// Drops the subscriber and everything waiting for it; returns false if it was already gone.
    @inlinable
    mutating func cancel() -> Bool {
        guard let downstream else { return false }
        if delivering { retired = downstream }
        self.downstream = nil
        queued.removeAll()
        undelivered = nil
        completion = nil
        return true
    }

    @inlinable
    mutating func next() -> Action {
        guard let downstream else { return .none }
        if !queued.isEmpty, let value = queued.popFirst() {
            delivering = true
            return .deliver(value)
        }
        if let completion {
            self.downstream = nil
            self.completion = nil
            return .complete(downstream, completion)
        }
        if keepsLatest, let value = undelivered, demand > 0 {
            undelivered = nil
            demand -= 1
            delivering = true
            return .deliver(value)
        }
        return .none
    }

    /// Performs `action` and whatever follows it, calling the subscriber through `target`, the unretained box of
    /// the subscriber this state owns; `delivered` runs ``delivered(_:)`` under the caller's lock.
    @inlinable
    static func run(
        _ action: consuming Action,
        to target: Unmanaged<Downstream.Box>,
        delivered: (Subscribers.Demand) -> Action
    ) {
        var action = action
        while true {
            switch consume action {
            case .none, .release:
                return
            case .deliver(let value):
                let more = target._withUnsafeGuaranteedRef { $0.receiveValue(value) }
                action = delivered(more)
            case .complete(let downstream, let completion):
                downstream.receive(completion: completion)
                return
            }
        }
    }
}
