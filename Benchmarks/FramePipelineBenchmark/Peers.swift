import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Two threads and a pthread mutex + condition variable: the textbook wake-up, the floor for idle latency.
final class ConditionHandOff: @unchecked Sendable {
    // Unchecked: `pending` and `stopped` are read and written only with `mutex` held.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var pending = false
    private var stopped = false
    /// When the waiting thread last woke up, in nanoseconds.
    let wokeAt = Stamp()
    /// How many hand-offs the waiting thread has received.
    let received = Atomic<Int>(0)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Starts the waiting thread.
    func start() {
        let thread = Thread { [self] in
            pthread_mutex_lock(mutex)
            while true {
                while !pending && !stopped { pthread_cond_wait(condition, mutex) }
                if stopped { break }
                pending = false
                wokeAt.stampNow()
                received.add(1, ordering: .releasing)
            }
            pthread_mutex_unlock(mutex)
        }
        thread.start()
    }

    /// Wakes the waiting thread.
    func signal() {
        pthread_mutex_lock(mutex)
        pending = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Ends the waiting thread.
    func stop() {
        pthread_mutex_lock(mutex)
        stopped = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }
}

/// A joinable pthread running a closure.
final class Thread: @unchecked Sendable {
    // Unchecked: `handle` is written by `start()` and read by `join()`, both on the creating thread.
    private let body: @Sendable () -> Void
    private var handle = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
    }

    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        pthread_create(
            &handle, nil,
            { argument in
                Unmanaged<Thread>.fromOpaque(argument!).takeRetainedValue().body()
                return nil
            }, context)
    }

    func join() {
        pthread_join(handle, nil)
    }
}

/// Measures the peers the pipeline is compared with.
enum Peers {
    /// One-way latency of a condition-variable wake-up of an idle thread, one sample.
    static func conditionWakeUp(_ handOff: ConditionHandOff) -> UInt64 {
        let previous = handOff.wokeAt.load()
        let start = nanosecondsNow()
        handOff.signal()
        return handOff.wokeAt.spin(changingFrom: previous) - start
    }

    /// Hand-offs per second through a condition variable with one hand-off in flight: the producer waits for each.
    static func conditionOneInFlight(count: Int) -> Double {
        let handOff = ConditionHandOff()
        handOff.start()
        let start = nanosecondsNow()
        for index in 1...count {
            handOff.signal()
            while handOff.received.load(ordering: .acquiring) < index {}
        }
        let elapsed = nanosecondsNow() - start
        handOff.stop()
        return Double(count) / Double(elapsed) * 1e9
    }

    /// One-way latency of `DispatchQueue.async` to an idle serial queue, one sample.
    static func dispatchWakeUp(_ queue: DispatchQueue, stamp: Stamp) -> UInt64 {
        let previous = stamp.load()
        let start = nanosecondsNow()
        queue.async { stamp.stampNow() }
        return stamp.spin(changingFrom: previous) - start
    }

    /// `DispatchQueue.async` as fast as possible into a trivial block: cost per call and blocks run per second.
    static func dispatchThroughput(count: Int) -> (callNanoseconds: Double, perSecond: Double) {
        let queue = DispatchQueue(label: "benchmark.dispatch")
        let done = Atomic<Int>(0)
        let start = nanosecondsNow()
        for _ in 0..<count {
            queue.async { done.add(1, ordering: .relaxed) }
        }
        let enqueued = nanosecondsNow()
        while done.load(ordering: .relaxed) < count {}
        let finished = nanosecondsNow()
        return (Double(enqueued - start) / Double(count), Double(count) / Double(finished - start) * 1e9)
    }

    /// One-way latency of an `AsyncStream` yield to an idle consuming task, one sample.
    static func asyncStreamWakeUp(_ continuation: AsyncStream<UInt64>.Continuation, stamp: Stamp) -> UInt64 {
        let previous = stamp.load()
        let start = nanosecondsNow()
        continuation.yield(start)
        return stamp.spin(changingFrom: previous) - start
    }

    /// A stream whose consuming task stamps `stamp` with the time it received each element.
    static func stampingStream(stamp: Stamp) -> AsyncStream<UInt64>.Continuation {
        let (stream, continuation) = AsyncStream.makeStream(of: UInt64.self, bufferingPolicy: .bufferingNewest(3))
        Task.detached {
            for await _ in stream { stamp.stampNow() }
        }
        return continuation
    }

    /// `AsyncStream` with a 3-element drop-oldest buffer, yielding as fast as possible into a trivial consumer:
    /// cost per yield, and elements consumed and dropped per second.
    static func asyncStreamThroughput(
        count: Int
    ) -> (yieldNanoseconds: Double, deliveredPerSecond: Double, droppedPerSecond: Double) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(3))
        let consumed = Atomic<Int>(0)
        let finished = Atomic<Bool>(false)
        Task.detached {
            for await _ in stream { consumed.add(1, ordering: .relaxed) }
            finished.store(true, ordering: .releasing)
        }
        var dropped = 0
        let start = nanosecondsNow()
        for index in 0..<count {
            if case .dropped = continuation.yield(index) { dropped += 1 }
        }
        let elapsed = Double(nanosecondsNow() - start)
        continuation.finish()
        while !finished.load(ordering: .acquiring) {}
        return (
            elapsed / Double(count), Double(consumed.load(ordering: .relaxed)) / elapsed * 1e9,
            Double(dropped) / elapsed * 1e9
        )
    }
}
