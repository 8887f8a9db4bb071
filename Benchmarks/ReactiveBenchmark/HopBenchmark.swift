import Dispatch
import ViewfinderReactive

/// Handing values to a serial queue: through `receive(on:)`, and with one `DispatchQueue.async` per value.
enum HopBenchmark {
    /// Values sent as fast as possible through `receive(on:)`; timed until the last one is handled on the queue.
    static func receiveOnBurst(count: Int) -> Duration {
        let queue = DispatchQueue(label: "receive-on")
        let subject = PassthroughSubject<Int, Never>()
        let done = DispatchSemaphore(value: 0)
        let total = Total()
        let cancellable = subject.receive(on: queue).sink { value in
            total.value &+= value
            if value == count - 1 { done.signal() }
        }
        let start = clock.now
        for value in 0..<count {
            subject.send(value)
        }
        done.wait()
        let elapsed = clock.now - start
        cancellable.cancel()
        consume(total.value)
        return elapsed
    }

    /// One `DispatchQueue.async` per value, as fast as possible; timed until the last one has run.
    static func dispatchBurst(count: Int) -> Duration {
        let queue = DispatchQueue(label: "dispatch")
        let done = DispatchSemaphore(value: 0)
        let total = Total()
        let start = clock.now
        for value in 0..<count {
            queue.async {
                total.value &+= value
                if value == count - 1 { done.signal() }
            }
        }
        done.wait()
        let elapsed = clock.now - start
        consume(total.value)
        return elapsed
    }

    /// One value at a time through `receive(on:)`: each send waits until the value was handled on the queue.
    static func receiveOnOneByOne(count: Int) -> Duration {
        let queue = DispatchQueue(label: "receive-on-one")
        let subject = PassthroughSubject<Int, Never>()
        let handled = DispatchSemaphore(value: 0)
        let total = Total()
        let cancellable = subject.receive(on: queue).sink { value in
            total.value &+= value
            handled.signal()
        }
        let start = clock.now
        for value in 0..<count {
            subject.send(value)
            handled.wait()
        }
        let elapsed = clock.now - start
        cancellable.cancel()
        consume(total.value)
        return elapsed
    }

    /// One value at a time with `DispatchQueue.async`: each hand-off waits until the block has run.
    static func dispatchOneByOne(count: Int) -> Duration {
        let queue = DispatchQueue(label: "dispatch-one")
        let handled = DispatchSemaphore(value: 0)
        let total = Total()
        let start = clock.now
        for value in 0..<count {
            queue.async {
                total.value &+= value
                handled.signal()
            }
            handled.wait()
        }
        let elapsed = clock.now - start
        consume(total.value)
        return elapsed
    }

    /// A running total touched only on the benchmark's queue; the semaphore orders the final read.
    final class Total: @unchecked Sendable {
        var value = 0
    }
}
