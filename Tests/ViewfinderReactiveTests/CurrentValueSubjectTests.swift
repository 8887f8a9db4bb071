import Testing
import ViewfinderReactive

@Suite struct CurrentValueSubjectTests {
    @Test func newSubscriberGetsTheCurrentValueOnDemand() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(1)])
    }

    @Test func keepsTheNewestValueUntilAsked() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(1))
        subject.subscribe(subscriber)
        subject.send(2)
        subject.send(3)
        #expect(subscriber.values == [1])
        subscriber.subscription?.request(.max(5))
        #expect(subscriber.values == [1, 3])
        subject.send(4)
        #expect(subscriber.values == [1, 3, 4])
    }

    @Test func valuePropertyReadsAndSends() {
        let subject = CurrentValueSubject<String, Never>("a")
        let subscriber = TrackingSubscriber<String, Never>(demand: .unlimited)
        subject.subscribe(subscriber)
        subject.value = "b"
        #expect(subject.value == "b")
        #expect(subscriber.values == ["a", "b"])
    }

    @Test func optionalValues() {
        let subject = CurrentValueSubject<Int?, Never>(nil)
        let subscriber = TrackingSubscriber<Int?, Never>(demand: .unlimited)
        subject.subscribe(subscriber)
        subject.send(3)
        subject.send(nil)
        #expect(subscriber.values == [nil, 3, nil])
        #expect(subject.value == nil)
    }

    @Test func completionDropsTheUndeliveredValueAndStopsUpdates() {
        let subject = CurrentValueSubject<Int, Never>(1)
        let subscriber = TrackingSubscriber<Int, Never>()
        subject.subscribe(subscriber)
        subject.send(completion: .finished)
        subject.send(2)
        subscriber.subscription?.request(.unlimited)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(subject.value == 1)
    }

    @Test func eachSubscriberPacesItself() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let slow = TrackingSubscriber<Int, Never>(demand: .max(1))
        let fast = TrackingSubscriber<Int, Never>(demand: .unlimited)
        subject.subscribe(slow)
        subject.subscribe(fast)
        for value in 1...3 { subject.send(value) }
        #expect(fast.values == [0, 1, 2, 3])
        #expect(slow.values == [0])
        slow.subscription?.request(.max(1))
        #expect(slow.values == [0, 3])
    }
}
