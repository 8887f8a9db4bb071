import Testing
import ViewfinderTestSupport

@testable import ViewfinderReactive

@Suite(.timeLimit(.minutes(1))) struct AsyncSequencePublisherTests {
    @Test func deliversTheElementsThenFinishes() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        for value in 1...3 { continuation.yield(value) }
        continuation.finish()
        let done = Signal()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited)
        stream.publisher.handleEvents(receiveCompletion: { _ in done.raise() }).subscribe(subscriber)
        await done.wait()
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func readsTheSequenceOnlyAsFarAsDemanded() async throws {
        let pulled = Counter()
        let numbers = PulledNumbers(pulled: pulled)
        let delivered = Signal()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(2), raising: delivered)
        numbers.publisher.subscribe(subscriber)
        await delivered.wait(for: 2)
        // The iteration has come to its wait for demand: had it run ahead, it would have pulled a third number first.
        let iteration = try #require(subscriber.subscription as? any DemandAwaiting)
        try await waitUntil("the iteration to wait for demand") { iteration.isAwaitingDemand }
        #expect(pulled.value == 2)
        #expect(subscriber.values == [1, 2])
        subscriber.subscription?.request(.max(1))
        await delivered.wait(for: 3)
        #expect(subscriber.values == [1, 2, 3])
        subscriber.subscription?.cancel()
    }

    @Test func failurePassesTheSequencesError() async {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Int.self)
        continuation.yield(1)
        continuation.finish(throwing: TestError(code: 5))
        let done = Signal()
        let subscriber = TrackingSubscriber<Int, any Error>(demand: .unlimited)
        stream.publisher.handleEvents(receiveCompletion: { _ in done.raise() }).subscribe(subscriber)
        await done.wait()
        #expect(subscriber.values == [1])
        guard case .failure(let error) = subscriber.completions.first else {
            Issue.record("expected a failure, got \(subscriber.events)")
            return
        }
        #expect(error as? TestError == TestError(code: 5))
    }

    @Test func cancelCancelsTheIterationWaitingForAnElement() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let terminated = Signal()
        continuation.onTermination = { _ in terminated.raise() }
        let delivered = Signal()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited, raising: delivered)
        stream.publisher.subscribe(subscriber)
        continuation.yield(1)
        await delivered.wait()
        subscriber.subscription?.cancel()
        await terminated.wait()
        continuation.yield(2)
        #expect(subscriber.events == [.subscription, .value(1)])
    }
}

/// The natural numbers, counting how many were pulled.
private struct PulledNumbers: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never

    let pulled: Counter

    struct AsyncIterator: AsyncIteratorProtocol {
        let pulled: Counter

        mutating func next() async -> Int? {
            pulled.increment()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pulled: pulled)
    }
}
