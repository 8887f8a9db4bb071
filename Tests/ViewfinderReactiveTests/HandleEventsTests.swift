import Testing
import ViewfinderReactive
import ViewfinderSystem

@Suite struct HandleEventsTests {
    @Test func seesEveryEventInOrder() {
        let log = Locked<[String]>([])
        let upstream = TrackingPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(2))
        upstream.handleEvents(
            receiveSubscription: { _ in log.withLock { $0.append("subscription") } },
            receiveOutput: { value in log.withLock { $0.append("value \(value)") } },
            receiveCompletion: { _ in log.withLock { $0.append("completion") } },
            receiveCancel: { log.withLock { $0.append("cancel") } },
            receiveRequest: { demand in log.withLock { $0.append("request \(demand)") } }
        )
        .subscribe(subscriber)
        upstream.send(1)
        subscriber.subscription?.request(.unlimited)
        subscriber.subscription?.cancel()
        subscriber.subscription?.cancel()
        #expect(
            log.withLock { $0 } == [
                "subscription", "request max(2)", "value 1", "request unlimited", "cancel",
            ]
        )
        #expect(upstream.events == [.request(.max(2)), .request(.unlimited), .cancel])
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func completionIsObservedAndPassedOn() {
        let completions = Locked(0)
        let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited)
        [1].publisher.handleEvents(receiveCompletion: { _ in completions.withLock { $0 += 1 } }).subscribe(subscriber)
        #expect(completions.withLock { $0 } == 1)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }
}
