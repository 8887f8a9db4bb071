import ViewfinderSystem

/// State behind a lock that may hold subscribers, subscriptions and values.
///
/// A publisher may call its subscriber from any thread, one call at a time, so subscribers, subscriptions and the
/// values they exchange cross threads by design even when their types are not `Sendable`. Every access to the
/// guarded state goes through ``withLock(_:)``; callbacks run after it returns, never inside it.
@usableFromInline
struct LockedState<Value>: Sendable {
    @usableFromInline let lock: Locked<Unchecked<Value>>

    @inlinable
    init(_ value: Value) {
        lock = Locked(Unchecked(value))
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    @inlinable
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&$0.value) }
    }
}

/// A value handed across threads under the publisher contract (see ``LockedState``).
@usableFromInline
struct Unchecked<Value>: @unchecked Sendable {
    @usableFromInline var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}
