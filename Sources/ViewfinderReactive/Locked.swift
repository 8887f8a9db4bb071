import Synchronization

/// State guarded by a `Mutex` that may hold subscribers, subscriptions and values.
///
/// A publisher may call its subscriber from any thread, one call at a time, so subscribers, subscriptions and the
/// values they exchange cross threads by design even when their types are not `Sendable`. Every access to the
/// guarded state goes through ``withLock(_:)``; callbacks run after it returns, never inside it.
@usableFromInline
struct Locked<Value>: ~Copyable, Sendable {
    /// The box that lets a non-`Sendable` value live inside the mutex.
    @usableFromInline
    struct Box: @unchecked Sendable {
        @usableFromInline var value: Value

        @inlinable
        init(_ value: Value) {
            self.value = value
        }
    }

    @usableFromInline let mutex: Mutex<Box>
    /// Makes each critical section visibly follow the previous one.
    ///
    /// On Linux a contended `Mutex` is handed over inside the kernel (a priority-inheriting futex), which the
    /// thread sanitizer cannot see. Reading this flag with acquire ordering after locking, and writing it with
    /// release ordering before unlocking, shows the sanitizer the ordering the mutex guarantees; on x86-64 both
    /// are plain moves.
    @usableFromInline let handOver = Atomic(false)

    @inlinable
    init(_ value: Value) {
        self.mutex = Mutex(Box(value))
    }

    /// Runs `body` with exclusive access to the value and returns its result.
    @inlinable
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { box in
            _ = handOver.load(ordering: .acquiring)
            defer { handOver.store(false, ordering: .releasing) }
            return body(&box.value)
        }
    }
}

/// A value handed across threads under the publisher contract (see ``Locked``).
@usableFromInline
struct Unchecked<Value>: @unchecked Sendable {
    @usableFromInline var value: Value

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}
