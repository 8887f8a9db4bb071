import Dispatch
import Synchronization
import Testing
import ViewfinderReactive
import ViewfinderSystem
import ViewfinderTestSupport

/// A serial queue that knows whether the current code runs on it.
private final class MarkedQueue: Sendable {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()

    init(_ label: String, attributes: DispatchQueue.Attributes = []) {
        queue = DispatchQueue(label: label, attributes: attributes)
        queue.setSpecific(key: key, value: true)
    }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}

@Suite(.timeLimit(.minutes(1))) struct SchedulingTests {
    @Test func receiveOnDeliversValuesAndCompletionOnTheQueueInOrder() async {
        let marked = MarkedQueue("receive")
        let done = Signal()
        let log = Locked<[String]>([])
        let subscriber = TrackingSubscriber<Int, Never>(
            receiveSubscription: { $0.request(.unlimited) },
            receiveValue: { value in
                log.withLock { $0.append("\(value) on queue: \(marked.isCurrent)") }
                return .none
            }
        )
        let subject = PassthroughSubject<Int, Never>()
        let completion = subject.receive(on: marked.queue)
            .handleEvents(receiveCompletion: { _ in
                log.withLock { $0.append("completion on queue: \(marked.isCurrent)") }
                done.raise()
            })
        completion.subscribe(subscriber)
        for value in 1...3 { subject.send(value) }
        subject.send(completion: .finished)
        await done.wait()
        #expect(
            log.withLock { $0 } == [
                "1 on queue: true", "2 on queue: true", "3 on queue: true", "completion on queue: true",
            ]
        )
        #expect(subscriber.completions == [.finished])
    }

    @Test func receiveOnPassesDemandUpstreamIncludingDemandReturnedOnTheQueue() async throws {
        let upstream = TrackingPublisher<Int, Never>()
        let delivered = Signal()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(1), answer: .max(2), raising: delivered)
        upstream.receive(on: DispatchQueue(label: "demand")).subscribe(subscriber)
        #expect(upstream.events == [.request(.max(1))])
        upstream.send(1)
        await delivered.wait()
        try await waitUntil("the demand returned on the queue") { upstream.events.count >= 2 }
        #expect(upstream.events == [.request(.max(1)), .request(.max(2))])
    }

    @Test func receiveOnSerialisesDeliveryOnAConcurrentQueue() async {
        let concurrent = DispatchQueue(label: "concurrent", attributes: .concurrent)
        let inside = Atomic(false)
        let overlaps = Atomic(0)
        let done = Signal()
        let subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.receive(on: concurrent).sink { value in
            if inside.exchange(true, ordering: .acquiringAndReleasing) { overlaps.add(1, ordering: .relaxed) }
            inside.store(false, ordering: .releasing)
            if value == 1_000 { done.raise() }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { part in
            for value in 1...250 where part == 0 { subject.send(value) }
            for value in 251...1_000 where part == 1 { subject.send(value) }
        }
        await done.wait()
        #expect(overlaps.load(ordering: .relaxed) == 0)
        cancellable.cancel()
    }

    @Test func receiveOnCancelStopsDeliveryAndCancelsTheUpstream() async {
        let upstream = TrackingPublisher<Int, Never>()
        let queue = DispatchQueue(label: "cancel")
        let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited)
        queue.suspend()
        upstream.receive(on: queue).subscribe(subscriber)
        upstream.send(1)
        subscriber.subscription?.cancel()
        queue.resume()
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(subscriber.events == [.subscription])
        #expect(upstream.events == [.request(.unlimited), .cancel])
    }

    @Test func receiveOnPassesAFailureAfterTheValues() async {
        let done = Signal()
        let subject = PassthroughSubject<Int, TestError>()
        let subscriber = TrackingSubscriber<Int, TestError>(demand: .unlimited)
        subject.receive(on: DispatchQueue(label: "failure"))
            .handleEvents(receiveCompletion: { _ in done.raise() })
            .subscribe(subscriber)
        subject.send(1)
        subject.send(2)
        subject.send(completion: .failure(TestError(code: 7)))
        subject.send(3)
        await done.wait()
        #expect(
            subscriber.events == [.subscription, .value(1), .value(2), .completion(.failure(TestError(code: 7)))]
        )
    }

    @Test func subscribeOnPassesValuesAndCompletionWithinDemand() async {
        let done = Signal()
        let delivered = Signal()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(2), raising: delivered)
        (1...3).publisher
            .subscribe(on: DispatchQueue(label: "subscribe-values"))
            .handleEvents(receiveCompletion: { _ in done.raise() })
            .subscribe(subscriber)
        await delivered.wait(for: 2)
        #expect(subscriber.events == [.subscription, .value(1), .value(2)])
        subscriber.subscription?.request(.max(1))
        await done.wait()
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func subscribeOnSubscribesRequestsAndCancelsOnTheQueue() async {
        let marked = MarkedQueue("subscribe")
        let log = Locked<[String]>([])
        let subscribed = Signal()
        let cancelled = Signal()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(2))
        Empty<Int, Never>(completeImmediately: false)
            .handleEvents(
                receiveSubscription: { _ in log.withLock { $0.append("subscribe \(marked.isCurrent)") } },
                receiveCancel: {
                    log.withLock { $0.append("cancel \(marked.isCurrent)") }
                    cancelled.raise()
                },
                receiveRequest: { demand in
                    log.withLock { $0.append("request \(demand) \(marked.isCurrent)") }
                    subscribed.raise()
                }
            )
            .subscribe(on: marked.queue)
            .subscribe(subscriber)
        await subscribed.wait()
        subscriber.subscription?.cancel()
        await cancelled.wait()
        #expect(log.withLock { $0 } == ["subscribe true", "request max(2) true", "cancel true"])
        #expect(subscriber.events == [.subscription])
    }
}
