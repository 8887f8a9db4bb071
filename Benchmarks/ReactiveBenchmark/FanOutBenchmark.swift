import ViewfinderReactive

/// One producer, many consumers: a subject with `subscribers` sinks, and one AsyncStream per consumer.
enum FanOutBenchmark {
    /// Values sent into a subject with `subscribers` sinks.
    static func subject(count: Int, subscribers: Int) -> Duration {
        let subject = PassthroughSubject<Int, Never>()
        let totals = (0..<subscribers).map { _ in Total() }
        let cancellables = totals.map { total in subject.sink { total.value &+= $0 } }
        let start = clock.now
        for value in 0..<count {
            subject.send(value)
        }
        let elapsed = clock.now - start
        for cancellable in cancellables { cancellable.cancel() }
        consume(totals.reduce(0) { $0 &+ $1.value })
        return elapsed
    }

    /// The same through AsyncStream: the producer yields each value to every consumer's stream.
    static func asyncStream(count: Int, subscribers: Int) async -> Duration {
        let streams = (0..<subscribers).map { _ in AsyncStream.makeStream(of: Int.self) }
        let start = clock.now
        let total = await withTaskGroup(of: Int.self) { group in
            for (stream, _) in streams {
                group.addTask {
                    var total = 0
                    for await value in stream { total &+= value }
                    return total
                }
            }
            group.addTask {
                for value in 0..<count {
                    for (_, continuation) in streams { continuation.yield(value) }
                }
                for (_, continuation) in streams { continuation.finish() }
                return 0
            }
            return await group.reduce(0, &+)
        }
        let elapsed = clock.now - start
        consume(total)
        return elapsed
    }

    /// One consumer's running total; each is touched by one sink only.
    final class Total {
        var value = 0
    }
}
