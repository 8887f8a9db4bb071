import Testing
import ViewfinderReactive
import ViewfinderSystem

@Suite struct PassthroughSubjectTests {
    @Test func dropsValuesWithoutDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(1)
        subscriber.subscription?.request(.max(2))
        subject.send(2)
        subject.send(3)
        subject.send(4)
        #expect(subscriber.events == [.subscription, .value(2), .value(3)])
    }

    @Test func eachSubscriberHasItsOwnDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let one = TrackingSubscriber<Int, Never>(demand: .max(1))
        let all = TrackingSubscriber<Int, Never>(demand: .unlimited)
        subject.subscribe(one)
        subject.subscribe(all)
        for value in 1...3 { subject.send(value) }
        #expect(one.values == [1])
        #expect(all.values == [1, 2, 3])
    }

    @Test func demandReturnedFromReceiveIsAdded() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(1), answer: .max(1))
        subject.subscribe(subscriber)
        for value in 1...3 { subject.send(value) }
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func completesOnceAndLateSubscribersGetTheCompletion() {
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>(demand: .unlimited)
        subject.subscribe(subscriber)
        subject.send(completion: .failure(TestError(code: 2)))
        subject.send(completion: .finished)
        subject.send(5)
        #expect(subscriber.events == [.subscription, .completion(.failure(TestError(code: 2)))])

        let late = TrackingSubscriber<Int, TestError>(demand: .unlimited)
        subject.subscribe(late)
        #expect(late.events == [.subscription, .completion(.failure(TestError(code: 2)))])
    }

    @Test func completionNeedsNoDemand() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func cancelStopsDelivery() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited)
        subject.subscribe(subscriber)
        subject.send(1)
        subscriber.subscription?.cancel()
        subject.send(2)
        subject.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func cancellationReleasesTheSubscriber() {
        let subject = PassthroughSubject<Int, Never>()
        weak var released: TrackingSubscriber<Int, Never>?
        do {
            let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited)
            released = subscriber
            subject.subscribe(subscriber)
            subscriber.subscription?.cancel()
        }
        #expect(released == nil)
    }

    @Test func subscriberCancellingOnSubscriptionIsNotKept() {
        let subject = PassthroughSubject<Int, Never>()
        weak var released: TrackingSubscriber<Int, Never>?
        do {
            let subscriber = TrackingSubscriber<Int, Never>(receiveSubscription: { subscription in
                subscription.request(.unlimited)
                subscription.cancel()
            })
            released = subscriber
            subject.subscribe(subscriber)
            subject.send(1)
            #expect(subscriber.events == [.subscription])
        }
        #expect(released == nil)
    }

    @Test(arguments: [(Subscribers.Demand.unlimited, [1, 2, 3]), (.max(2), [1, 2])])
    func reentrantSendIsDeliveredAfterTheCurrentValueWithinDemand(demand: Subscribers.Demand, expected: [Int]) {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(
            receiveSubscription: { $0.request(demand) },
            receiveValue: { value in
                if value == 1 {
                    subject.send(2)
                    subject.send(3)
                }
                return .none
            }
        )
        subject.subscribe(subscriber)
        subject.send(1)
        #expect(subscriber.values == expected)
    }

    @Test func completionWaitsForQueuedValues() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(
            receiveSubscription: { $0.request(.unlimited) },
            receiveValue: { value in
                if value == 1 {
                    subject.send(2)
                    subject.send(completion: .finished)
                }
                return .none
            }
        )
        subject.subscribe(subscriber)
        subject.send(1)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .completion(.finished)])
    }

    @Test func feedsFromAnotherPublisher() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited)
        subject.subscribe(subscriber)
        let upstream = TrackingPublisher<Int, Never>()
        let cancellable = upstream.subscribe(subject)
        #expect(upstream.events == [.request(.unlimited)])
        upstream.send(4)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(4), .completion(.finished)])
        cancellable.cancel()
        #expect(upstream.events == [.request(.unlimited)])
    }

    @Test func cancellingTheFeedCancelsTheUpstream() {
        let subject = PassthroughSubject<Int, Never>()
        let upstream = TrackingPublisher<Int, Never>()
        let cancellable = upstream.subscribe(subject)
        cancellable.cancel()
        #expect(upstream.events == [.request(.unlimited), .cancel])
    }

    @Test func voidSubjectSendsWithoutArgument() {
        let subject = PassthroughSubject<Void, Never>()
        let count = Locked(0)
        let cancellable = subject.sink { count.withLock { $0 += 1 } }
        subject.send()
        subject.send()
        #expect(count.withLock { $0 } == 2)
        cancellable.cancel()
    }
}
