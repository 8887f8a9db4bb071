import Testing
import ViewfinderReactive
import ViewfinderSystem
import ViewfinderTestSupport

@Suite(.timeLimit(.minutes(1))) struct AsyncPublisherTests {
    @Test func requestsOneValuePerIteration() async throws {
        let upstream = TrackingPublisher<Int, Never>()
        let waiter = Task {
            var iterator = upstream.values.makeAsyncIterator()
            let first = await iterator.next()
            let second = await iterator.next()
            return [first, second]
        }
        try await waitUntil("the first request") { !upstream.events.isEmpty }
        #expect(upstream.events == [.request(.max(1))])
        upstream.send(5)
        try await waitUntil("the second request") { upstream.events.count >= 2 }
        #expect(upstream.events == [.request(.max(1)), .request(.max(1))])
        upstream.send(6)
        #expect(await waiter.value == [5, 6])
    }

    @Test func iteratesASequenceInOrderAndEnds() async {
        var received: [Int] = []
        for await value in (1...5).publisher.values {
            received.append(value)
        }
        #expect(received == [1, 2, 3, 4, 5])
    }

    @Test func throwsTheFailureOnceThenEnds() async {
        let subject = PassthroughSubject<Int, TestError>()
        var iterator = subject.values.makeAsyncIterator()
        subject.send(completion: .failure(TestError(code: 6)))
        await #expect(throws: TestError(code: 6)) { _ = try await iterator.next() }
        let afterwards = try? await iterator.next()
        #expect(afterwards == nil)
    }

    @Test func valueArrivingBeforeTheWaitIsKept() async {
        let upstream = TrackingPublisher<Int, Never>()
        var iterator = upstream.values.makeAsyncIterator()
        upstream.send(9)
        #expect(await iterator.next() == 9)
    }

    @Test func breakingOutOfTheLoopCancelsTheSubscription() async {
        let upstream = CountingPublisher()
        for await value in upstream.values where value == 2 {
            break
        }
        #expect(upstream.cancelled)
        #expect(upstream.requests == [.max(1), .max(1)])
    }

    @Test func cancellingTheTaskEndsTheIterationAndCancelsTheSubscription() async throws {
        let upstream = TrackingPublisher<Int, Never>()
        let started = Signal()
        let task = Task {
            var received: [Int] = []
            var iterator = upstream.values.makeAsyncIterator()
            started.raise()
            while let value = await iterator.next() {
                received.append(value)
            }
            return received
        }
        await started.wait()
        try await waitUntil("the first request") { !upstream.events.isEmpty }
        upstream.send(1)
        try await waitUntil("the second request") { upstream.events.count >= 2 }
        task.cancel()
        #expect(await task.value == [1])
        #expect(upstream.isCancelled)
    }
}

/// A publisher that produces 1, 2, 3, … as requested and records requests and cancellation.
private final class CountingPublisher: Publisher, Sendable {
    typealias Output = Int
    typealias Failure = Never

    private let log = Locked(Unchecked((requests: [Subscribers.Demand](), cancelled: false)))

    var cancelled: Bool { log.withLock { $0.value.cancelled } }
    var requests: [Subscribers.Demand] { log.withLock { $0.value.requests } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Counting(publisher: self, subscriber: AnySubscriber(subscriber)))
    }

    private final class Counting: Subscription {
        let publisher: CountingPublisher
        let subscriber: AnySubscriber<Int, Never>
        let counter = Counter()

        init(publisher: CountingPublisher, subscriber: AnySubscriber<Int, Never>) {
            self.publisher = publisher
            self.subscriber = subscriber
        }

        func request(_ demand: Subscribers.Demand) {
            publisher.log.withLock { $0.value.requests.append(demand) }
            for _ in 0..<(demand.max ?? 1) {
                _ = subscriber.receive(counter.increment())
            }
        }

        func cancel() {
            publisher.log.withLock { $0.value.cancelled = true }
        }
    }
}
