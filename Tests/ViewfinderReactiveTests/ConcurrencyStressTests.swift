import Dispatch
import Synchronization
import Testing
import ViewfinderReactive
import ViewfinderSystem

/// Many threads at once; run under `swift test --sanitize=thread` to check for data races.
@Suite(.timeLimit(.minutes(2))) struct ConcurrencyStressTests {
    static let threads = 4
    static let perThread = 2_000

    /// Sends `perThread` values tagged with the sender from each of `threads` threads.
    private func sendFromManyThreads(_ send: @Sendable (_ thread: Int, _ index: Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.perThread { send(thread, index) }
        }
    }

    @Test func subjectSerialisesDeliveryAndKeepsEachSendersOrder() {
        let subject = PassthroughSubject<(thread: Int, index: Int), Never>()
        let checkers = (0..<3).map { _ in OrderChecker(senders: Self.threads) }
        let cancellables = checkers.map { checker in subject.sink { checker.receive($0) } }
        sendFromManyThreads { subject.send((thread: $0, index: $1)) }
        #expect(checkers.map(\.received) == Array(repeating: Self.threads * Self.perThread, count: 3))
        #expect(checkers.map(\.overlaps) == [0, 0, 0])
        #expect(checkers.map(\.outOfOrder) == [0, 0, 0])
        #expect(cancellables.count == 3)
    }

    @Test func subjectNeverExceedsFiniteDemandUnderConcurrentSends() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<Int, Never>(demand: .max(1_000))
        subject.subscribe(subscriber)
        sendFromManyThreads { _, index in subject.send(index) }
        #expect(subscriber.values.count == 1_000)
    }

    @Test func subscribeAndCancelWhileSending() async {
        let subject = PassthroughSubject<Int, Never>()
        let stop = Atomic(false)
        let senderDone = Signal()
        DispatchQueue.global().async {
            var value = 0
            while !stop.load(ordering: .relaxed) {
                subject.send(value)
                value += 1
            }
            senderDone.raise()
        }
        let decreases = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<200 {
                let last = Locked(-1)
                let cancellable = subject.sink { value in
                    last.withLock {
                        if value <= $0 { decreases.add(1, ordering: .relaxed) }
                        $0 = value
                    }
                }
                cancellable.cancel()
            }
        }
        stop.store(true, ordering: .relaxed)
        await senderDone.wait()
        #expect(decreases.load(ordering: .relaxed) == 0)
    }

    @Test func subscribersAttachingWhileTheSubjectCompletesGetTheSubscriptionFirstAndOneCompletion() {
        let subject = PassthroughSubject<Int, Never>()
        let subscribers = (0..<400).map { _ in TrackingSubscriber<Int, Never>(demand: .unlimited) }
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread == 0 {
                subject.send(1)
                subject.send(completion: .finished)
            }
            for index in stride(from: thread, to: subscribers.count, by: Self.threads) {
                subject.subscribe(subscribers[index])
            }
        }
        #expect(subscribers.allSatisfy { $0.events.first == .subscription })
        #expect(subscribers.allSatisfy { $0.completions == [.finished] })
        #expect(subscribers.allSatisfy { $0.events.last == .completion(.finished) })
    }

    @Test func sequenceServesConcurrentRequestsInOrderOneAtATime() {
        let detector = OverlapDetector()
        let received = Recorder<Int>()
        let subscriber = TrackingSubscriber<Int, Never>(receiveValue: { value in
            detector.enter()
            received.append(value)
            detector.leave()
            return .none
        })
        (1...).lazy.publisher.subscribe(subscriber)
        let subscription = Unchecked(subscriber.subscription!)
        sendFromManyThreads { _, _ in subscription.value.request(.max(1)) }
        #expect(received.values == Array(1...(Self.threads * Self.perThread)))
        #expect(detector.count == 0)
        subscription.value.cancel()
    }

    @Test func currentValueSubscriberEndsOnTheSubjectsValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let last = Locked(-1)
        let cancellable = subject.sink { value in last.withLock { $0 = value } }
        sendFromManyThreads { thread, index in subject.send(thread * Self.perThread + index) }
        #expect(last.withLock { $0 } == subject.value)
        cancellable.cancel()
    }

    @Test func combineLatestEndsOnTheNewestValues() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let last = Locked((-1, -1))
        let detector = OverlapDetector()
        let cancellable = a.combineLatest(b).sink { pair in
            detector.enter()
            last.withLock { $0 = pair }
            detector.leave()
        }
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            for index in 0..<Self.perThread {
                side == 0 ? a.send(index) : b.send(index)
            }
        }
        let (lastA, lastB) = last.withLock { $0 }
        #expect(lastA == Self.perThread - 1)
        #expect(lastB == Self.perThread - 1)
        #expect(detector.count == 0)
        cancellable.cancel()
    }

    @Test func receiveOnWithReadyHandlerNeverHasMoreThanOneValueOutstanding() async {
        let subject = PassthroughSubject<Int, Never>()
        let outstanding = Atomic(0)
        let exceeded = Atomic(0)
        let received = Atomic(0)
        let counted = subject.handleEvents(receiveOutput: { _ in
            if outstanding.add(1, ordering: .relaxed).newValue > 1 { exceeded.add(1, ordering: .relaxed) }
        })
        let finished = Signal()
        let cancellable = counted.receive(on: DispatchQueue(label: "consumer")).sinkWithReadyHandler { _ in
            finished.raise()
        } receiveValue: { _, ready in
            received.add(1, ordering: .relaxed)
            outstanding.subtract(1, ordering: .relaxed)
            DispatchQueue.global().async { ready() }
        }
        sendFromManyThreads { _, index in subject.send(index) }
        subject.send(completion: .finished)
        // Delivery is asynchronous: the completion comes after the values, on the consumer's queue.
        await finished.wait()
        #expect(exceeded.load(ordering: .relaxed) == 0)
        #expect(received.load(ordering: .relaxed) >= 1)
        cancellable.cancel()
    }

    @Test func futureTakesExactlyOneOfConcurrentPromises() {
        let promises = Locked<Future<Int, Never>.Promise?>(nil)
        let future = Future<Int, Never> { promise in promises.withLock { $0 = promise } }
        let promise = promises.withLock { $0 }!
        let subscribers = (0..<4).map { _ in TrackingSubscriber<Int, Never>(demand: .unlimited) }
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            if index < 4 {
                promise(.success(index))
            } else {
                future.subscribe(subscribers[index - 4])
            }
        }
        let values = subscribers.map(\.values)
        #expect(values.allSatisfy { $0.count == 1 && $0 == values[0] })
        #expect(subscribers.allSatisfy { $0.completions == [.finished] })
    }

    @Test func valuesIteratesWhileAnotherThreadSends() async {
        let subject = CurrentValueSubject<Int, Never>(0)
        let producer = Task.detached {
            for value in 1...500 { subject.send(value) }
        }
        var previous = -1
        var increasing = true
        // The iteration may skip values but always catches up with the newest one.
        for await value in subject.values {
            if value <= previous { increasing = false }
            previous = value
            if value == 500 { break }
        }
        await producer.value
        #expect(increasing)
        #expect(previous == 500)
    }

    @Test func cancellingFromAnotherThreadStopsDelivery() {
        let subject = PassthroughSubject<Int, Never>()
        let afterCancel = Atomic(0)
        let cancelled = Atomic(false)
        let cancellable = subject.sink { _ in
            if cancelled.load(ordering: .acquiring) { afterCancel.add(1, ordering: .relaxed) }
        }
        let box = Unchecked(cancellable)
        DispatchQueue.concurrentPerform(iterations: 2) { role in
            if role == 0 {
                for value in 0..<Self.perThread { subject.send(value) }
            } else {
                box.value.cancel()
                cancelled.store(true, ordering: .releasing)
            }
        }
        for value in 0..<10 { subject.send(value) }
        // Only a value already being delivered when cancel returned may follow it.
        #expect(afterCancel.load(ordering: .relaxed) <= 1)
    }
}

/// Checks one subscriber's deliveries: never overlapping, each sender's values in the order sent.
private final class OrderChecker: Sendable {
    private let detector = OverlapDetector()
    private let state: Locked<(last: [Int], received: Int, outOfOrder: Int)>

    init(senders: Int) {
        state = Locked((Array(repeating: -1, count: senders), 0, 0))
    }

    var received: Int { state.withLock { $0.received } }
    var outOfOrder: Int { state.withLock { $0.outOfOrder } }
    var overlaps: Int { detector.count }

    func receive(_ value: (thread: Int, index: Int)) {
        detector.enter()
        state.withLock { state in
            if value.index <= state.last[value.thread] { state.outOfOrder += 1 }
            state.last[value.thread] = value.index
            state.received += 1
        }
        detector.leave()
    }
}
