import Testing
import ViewfinderReactive
import ViewfinderSystem

@Suite struct SequencePublisherTests {
    @Test func deliversOnlyWhatIsDemanded() {
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(2))
        [1, 2, 3, 4].publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.values == [1, 2, 3])
        subscriber.subscription?.request(.max(1))
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .value(3), .value(4), .completion(.finished)])
    }

    @Test func finishesRightAfterTheLastElement() {
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(3))
        [1, 2, 3].publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func emptySequenceFinishesWithoutDemand() {
        let subscriber = TrackingSubscriber<Int, Never>()
        [Int]().publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func demandReturnedFromReceiveIsAdded() {
        let subscriber = TrackingSubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { $0 == 1 ? .max(2) : .none }
        )
        (1...10).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func demandRequestedInsideReceiveIsAdded() {
        let subscription = Locked<Unchecked<(any Subscription)?>>(Unchecked(nil))
        let subscriber = TrackingSubscriber<Int, Never>(
            receiveSubscription: { received in
                subscription.withLock { $0.value = received }
                received.request(.max(1))
            },
            receiveValue: { value in
                if value < 3 { subscription.withLock { $0.value }?.request(.max(1)) }
                return .none
            }
        )
        (1...10).publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
    }

    @Test func cancelInsideReceiveStopsDelivery() {
        let subscription = Locked<Unchecked<(any Subscription)?>>(Unchecked(nil))
        let subscriber = TrackingSubscriber<Int, Never>(
            receiveSubscription: { received in
                subscription.withLock { $0.value = received }
                received.request(.unlimited)
            },
            receiveValue: { value in
                if value == 2 { subscription.withLock { $0.value }?.cancel() }
                return .none
            }
        )
        (1...10).publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
    }

    @Test func readsALazySequenceOnlyAsFarAsDemanded() {
        let produced = Locked(0)
        let naturals = (1...).lazy.map { value in
            produced.withLock { $0 = value }
            return value
        }
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(3))
        naturals.publisher.subscribe(subscriber)
        #expect(subscriber.values == [1, 2, 3])
        // The publisher reads one element ahead to finish right after the last one.
        #expect(produced.withLock { $0 } == 4)
        subscriber.subscription?.cancel()
    }

    @Test func typedFailureSequence() {
        let subscriber = TrackingSubscriber<Int, TestError>(demand: .unlimited)
        Publishers.Sequence<[Int], TestError>(sequence: [5, 6]).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(5), .value(6), .completion(.finished)])
    }
}
