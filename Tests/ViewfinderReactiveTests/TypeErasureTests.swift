import Testing
import ViewfinderReactive
import ViewfinderSystem

@Suite struct TypeErasureTests {
    @Test func anyPublisherBehavesLikeTheWrappedPublisher() {
        let erased: AnyPublisher<Int, Never> = [1, 2, 3].publisher.map { $0 * 2 }.eraseToAnyPublisher()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(2))
        erased.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(2), .value(4)])
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(2), .value(4), .value(6), .completion(.finished)])
    }

    @Test func erasingTwiceKeepsOneWrapper() {
        let upstream = TrackingPublisher<Int, Never>()
        let twice = AnyPublisher(upstream.eraseToAnyPublisher())
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(3))
        twice.subscribe(subscriber)
        upstream.send(1)
        #expect(upstream.events == [.request(.max(3))])
        #expect(subscriber.values == [1])
    }

    @Test func anySubscriberForwardsToTheWrappedSubscriber() {
        let tracking = TrackingSubscriber<Int, Never>(demand: .max(1), answer: .max(4))
        let erased = AnySubscriber(tracking)
        let upstream = TrackingPublisher<Int, Never>()
        upstream.subscribe(AnySubscriber(erased))
        #expect(upstream.send(1) == .max(4))
        upstream.send(completion: .finished)
        #expect(tracking.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func anySubscriberFromClosures() {
        let log = Locked<[String]>([])
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { subscription in
                log.withLock { $0.append("subscription") }
                subscription.request(.unlimited)
            },
            receiveValue: { value in
                log.withLock { $0.append("\(value)") }
                return .none
            },
            receiveCompletion: { _ in log.withLock { $0.append("end") } }
        )
        [7, 8].publisher.subscribe(subscriber)
        #expect(log.withLock { $0 } == ["subscription", "7", "8", "end"])

        let silent = AnySubscriber<Int, Never>()
        #expect(silent.receive(1) == .none)
    }

    @Test func anySubscriberFromASubject() {
        let subject = PassthroughSubject<Int, Never>()
        let tracking = TrackingSubscriber<Int, Never>(demand: .unlimited)
        subject.subscribe(tracking)
        let upstream = TrackingPublisher<Int, Never>()
        upstream.subscribe(AnySubscriber(subject))
        #expect(upstream.events == [.request(.unlimited)])
        upstream.send(3)
        upstream.send(completion: .finished)
        #expect(tracking.events == [.subscription, .value(3), .completion(.finished)])
    }
}
