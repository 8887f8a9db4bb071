#if canImport(Glibc)
import Glibc
#endif

/// The CPU time the calling thread has used so far, from `CLOCK_THREAD_CPUTIME_ID`.
///
/// The difference of two readings is the cost of the work between them on this thread, whatever else the machine
/// runs meanwhile.
package func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}
