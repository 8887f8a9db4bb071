/// A type that delivers a sequence of values over time to subscribers that ask for them.
///
/// A publisher does nothing until a subscriber attaches with ``subscribe(_:)->()``. It then hands the
/// subscriber a ``Subscription`` and sends values only as far as the subscriber's demand allows (see
/// ``Subscribers/Demand``), followed by at most one completion. Calls to one subscriber never overlap.
///
/// Implement ``receive(subscriber:)`` to write a publisher; attach subscribers with ``subscribe(_:)->()``.
///
/// ```swift
/// let cancellable = [1, 2, 3].publisher
///     .map { $0 * 10 }
///     .sink { print($0) }  // 10, 20, 30
/// ```
public protocol Publisher<Output, Failure> {
    /// The kind of values this publisher delivers.
    associatedtype Output

    /// The kind of error this publisher may fail with; `Never` when it cannot fail.
    associatedtype Failure: Error

    /// Attaches a subscriber: called by ``subscribe(_:)->()``, not by users.
    ///
    /// The implementation must call the subscriber's ``Subscriber/receive(subscription:)`` exactly once, then send
    /// values only within the demand requested through that subscription.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches a subscriber to this publisher.
    @inlinable @inline(__always)
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        receive(subscriber: subscriber)
    }
}

/// The namespace of the publisher types that operators return.
public enum Publishers {}
