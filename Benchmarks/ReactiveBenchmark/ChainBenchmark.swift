import ViewfinderReactive

/// `map → filter → sink` over `count` values, from a subject, a sequence publisher and an AsyncStream.
enum ChainBenchmark {
    static func transform(_ value: Int) -> Int { value &* 3 }
    static func isIncluded(_ value: Int) -> Bool { value & 1 == 0 }

    /// Values sent one by one into a subject.
    static func subject(count: Int) -> Duration {
        let subject = PassthroughSubject<Int, Never>()
        var total = 0
        let cancellable = subject.map(transform).filter(isIncluded).sink { total &+= $0 }
        let start = clock.now
        for value in 0..<count {
            subject.send(value)
        }
        let elapsed = clock.now - start
        cancellable.cancel()
        consume(total)
        return elapsed
    }

    /// The values of a range, as the sink demands them.
    static func sequence(count: Int) -> Duration {
        var total = 0
        let start = clock.now
        let cancellable = (0..<count).publisher.map(transform).filter(isIncluded).sink { total &+= $0 }
        let elapsed = clock.now - start
        cancellable.cancel()
        consume(total)
        return elapsed
    }

    /// The same work through AsyncStream: a producer task yields, the caller iterates with map and filter.
    static func asyncStream(count: Int) async -> Duration {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let start = clock.now
        let producer = Task {
            for value in 0..<count {
                continuation.yield(value)
            }
            continuation.finish()
        }
        var total = 0
        for await value in stream.map(transform).filter(isIncluded) {
            total &+= value
        }
        await producer.value
        let elapsed = clock.now - start
        consume(total)
        return elapsed
    }
}
