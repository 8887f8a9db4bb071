import Testing
import ViewfinderReactive

@Suite struct TransformOperatorTests {
    @Test func mapTransformsValuesAndPassesDemandThrough() {
        let upstream = TrackingPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<String, TestError>(demand: .max(2), answer: .max(1))
        upstream.map { "#\($0)" }.subscribe(subscriber)
        #expect(upstream.events == [.request(.max(2))])
        #expect(upstream.send(1) == .max(1))
        upstream.send(completion: .failure(TestError()))
        #expect(subscriber.events == [.subscription, .value("#1"), .completion(.failure(TestError()))])
        subscriber.subscription?.cancel()
        #expect(upstream.events == [.request(.max(2)), .cancel])
    }

    @Test func filterAsksAgainForRejectedValues() {
        let upstream = TrackingPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(1))
        upstream.filter { $0.isMultiple(of: 2) }.subscribe(subscriber)
        #expect(upstream.send(1) == .max(1))
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(2), .completion(.finished)])
    }

    @Test func filterHonoursDemandOverASequence() {
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(3))
        (1...100).publisher.filter { $0.isMultiple(of: 10) }.subscribe(subscriber)
        #expect(subscriber.values == [10, 20, 30])
    }

    @Test func compactMapDropsNilsAndAsksAgain() {
        let upstream = TrackingPublisher<String, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited)
        upstream.compactMap { Int($0) }.subscribe(subscriber)
        #expect(upstream.send("x") == .max(1))
        #expect(upstream.send("4") == .none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(4), .completion(.finished)])
    }

    @Test func removeDuplicatesDropsRepeatsAndAsksAgain() {
        let upstream = TrackingPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited)
        upstream.removeDuplicates().subscribe(subscriber)
        let answers = [1, 1, 2, 2, 2, 1].map { upstream.send($0) }
        #expect(subscriber.values == [1, 2, 1])
        #expect(answers == [.none, .max(1), .none, .max(1), .max(1), .none])
    }

    @Test func removeDuplicatesByPredicate() {
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(2))
        [1, 3, 4, 6, 7].publisher.removeDuplicates { $0 % 2 == $1 % 2 }.subscribe(subscriber)
        #expect(subscriber.values == [1, 4])
        subscriber.subscription?.request(.unlimited)
        #expect(subscriber.values == [1, 4, 7])
        #expect(subscriber.completions == [.finished])
    }

    @Test func eachSubscriptionHasItsOwnPreviousValue() {
        let subject = PassthroughSubject<Int, Never>()
        let unique = subject.removeDuplicates()
        let first = TrackingSubscriber<Int, Never>(demand: .unlimited)
        unique.subscribe(first)
        subject.send(1)
        let second = TrackingSubscriber<Int, Never>(demand: .unlimited)
        unique.subscribe(second)
        subject.send(1)
        #expect(first.values == [1])
        #expect(second.values == [1])
    }
}
