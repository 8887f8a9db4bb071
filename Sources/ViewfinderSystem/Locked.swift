#if canImport(Glibc)
import Glibc
#endif

/// A value behind a `pthread_mutex_t`.
///
/// Used instead of Synchronization's `Mutex` because the thread sanitizer sees through `pthread_mutex_lock` but not
/// through `Mutex`'s futex-based wait, and reports false races whenever a `Mutex` is contended.
///
/// `withLock` is inlinable, so code that other modules specialise (generic publishers, for instance) keeps its
/// critical sections inline.
///
/// The value may be non-copyable, such as a ``FileDescriptor`` that several threads reach but one closes.
///
/// Guard a value, not `Void`: an empty value shares its address with the mutex's pointer, which the thread sanitizer
/// reports as a race.
///
/// ```swift
/// let counter = Locked(0)
/// counter.withLock { $0 += 1 }
/// ```
@usableFromInline
package final class Locked<Value: ~Copyable> {
    @usableFromInline var value: Value
    @usableFromInline let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// Wraps `value`.
    @inlinable
    package init(_ value: consuming Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable
    package func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

extension Locked: @unchecked Sendable where Value: ~Copyable & Sendable {}
