import Testing
import ViewfinderReactive

@Suite struct OutputTests {
    @Test func prefixFinishesAndCancelsTheUpstream() {
        let upstream = TrackingPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited)
        upstream.prefix(2).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
        #expect(upstream.events == [.request(.unlimited), .cancel])
    }

    @Test func prefixPassesDemandThrough() {
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(1))
        (1...10).publisher.prefix(3).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1)])
        subscriber.subscription?.request(.max(5))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func prefixOfZeroFinishesAtOnce() {
        let upstream = TrackingPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited)
        upstream.prefix(0).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(upstream.events == [.cancel])
    }

    @Test func upstreamEndBeforeTheLimitIsPassedOn() {
        let subscriber = TrackingSubscriber<Int, TestError>(demand: .unlimited)
        Fail<Int, TestError>(error: TestError()).prefix(3).subscribe(subscriber)
        #expect(subscriber.completions == [.failure(TestError())])
    }

    @Test func outputAtAndInSkipAndAskAgain() {
        let upstream = TrackingPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(1))
        upstream.output(in: 2..<4).subscribe(subscriber)
        #expect(upstream.send(10) == .max(1))
        #expect(upstream.send(11) == .max(1))
        #expect(upstream.send(12) == .none)
        subscriber.subscription?.request(.max(1))
        upstream.send(13)
        #expect(subscriber.events == [.subscription, .value(12), .value(13), .completion(.finished)])

        let single = TrackingSubscriber<Int, Never>(demand: .unlimited)
        (0..<10).publisher.output(at: 4).subscribe(single)
        #expect(single.events == [.subscription, .value(4), .completion(.finished)])
    }

    @Test func firstTakesOneValueAndAsksForNoMoreThanTheSubscriber() {
        let upstream = TrackingPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(1))
        upstream.first().subscribe(subscriber)
        upstream.send(5)
        #expect(subscriber.events == [.subscription, .value(5), .completion(.finished)])
        #expect(upstream.events == [.request(.max(1)), .cancel])
    }

    @Test func firstOfAnEmptyPublisherJustFinishes() {
        let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited)
        Empty<Int, Never>().first().subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func firstWhereSkipsAndAsksAgain() {
        let upstream = TrackingPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(1))
        upstream.first { $0 > 2 }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        upstream.send(3)
        #expect(subscriber.events == [.subscription, .value(3), .completion(.finished)])
        #expect(upstream.isCancelled)
    }
}
