import Dispatch
import ViewfinderReactive

/// Handing values to a serial queue: through `receive(on:)`, and with one `DispatchQueue.async` per value.
///
/// In a burst the values are handed over as fast as possible and the time runs until the last one was handled on
/// the queue; one at a time, each hand-off waits until its value was handled.
enum HopBenchmark {
    /// Values sent through a subject and `receive(on:)` to a sink on the queue.
    static func receiveOn(count: Int, oneAtATime: Bool) -> Duration {
        let subject = PassthroughSubject<Int, Never>()
        let consumer = Consumer(count: count, oneAtATime: oneAtATime)
        let cancellable = subject.receive(on: DispatchQueue(label: "receive-on")).sink(receiveValue: consumer.handle)
        let elapsed = consumer.time { subject.send($0) }
        cancellable.cancel()
        return elapsed
    }

    /// One `DispatchQueue.async` per value.
    static func dispatch(count: Int, oneAtATime: Bool) -> Duration {
        let queue = DispatchQueue(label: "dispatch")
        let consumer = Consumer(count: count, oneAtATime: oneAtATime)
        return consumer.time { value in queue.async { consumer.handle(value) } }
    }

    /// The work done on the queue for each value, and the signals the producer waits for.
    final class Consumer: @unchecked Sendable {
        let count: Int
        let oneAtATime: Bool
        /// A running total, touched only on the queue; the semaphores order the final read.
        var total = 0
        let handled = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)

        init(count: Int, oneAtATime: Bool) {
            self.count = count
            self.oneAtATime = oneAtATime
        }

        /// Handles a value on the queue.
        func handle(_ value: Int) {
            total &+= value
            if oneAtATime { handled.signal() }
            if value == count - 1 { finished.signal() }
        }

        /// Hands the values `0..<count` over with `handOff`, and returns how long until the last was handled.
        func time(_ handOff: (Int) -> Void) -> Duration {
            let start = clock.now
            for value in 0..<count {
                handOff(value)
                if oneAtATime { handled.wait() }
            }
            finished.wait()
            let elapsed = clock.now - start
            consume(total)
            return elapsed
        }
    }
}
