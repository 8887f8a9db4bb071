#if canImport(Glibc)
import Glibc
#endif

/// Puts one thread to sleep until another wakes it, with a single futex wake-up and no lock around it.
///
/// Built on a POSIX semaphore: ``unpark()`` before ``park()`` makes the next `park()` return at once, so a wake-up
/// can never be lost between deciding to sleep and sleeping. Extra wake-ups only make `park()` return early; callers
/// re-check their condition in a loop.
package final class ThreadParker: @unchecked Sendable {
    // Unchecked: the semaphore is touched only through sem_post and sem_wait, which are thread-safe, and it lives
    // at a fixed address from init to deinit.
    private let semaphore: UnsafeMutablePointer<sem_t>

    package init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Sleeps until ``unpark()`` has been called since the last return.
    package func park() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }

    /// Wakes the parked thread, or makes its next ``park()`` return at once.
    package func unpark() {
        sem_post(semaphore)
    }
}
