import Dispatch
import Testing
import ViewfinderReactive
import ViewfinderSystem

@Suite(.timeLimit(.minutes(1))) struct FutureDeferredTests {
    @Test func futureRunsItsClosureOnceAtCreation() {
        let runs = Locked(0)
        let future = Future<Int, Never> { promise in
            runs.withLock { $0 += 1 }
            promise(.success(1))
        }
        #expect(runs.withLock { $0 } == 1)
        let first = TrackingSubscriber<Int, Never>(demand: .unlimited)
        let second = TrackingSubscriber<Int, Never>(demand: .unlimited)
        future.subscribe(first)
        future.subscribe(second)
        #expect(runs.withLock { $0 } == 1)
        #expect(first.events == [.subscription, .value(1), .completion(.finished)])
        #expect(second.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func futureValueWaitsForResultAndDemand() {
        let promise = Locked<Future<String, Never>.Promise?>(nil)
        let future = Future<String, Never> { fulfil in promise.withLock { $0 = fulfil } }
        let subscriber = TrackingSubscriber<String, Never>()
        future.subscribe(subscriber)
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.events == [.subscription])
        promise.withLock { $0 }?(.success("done"))
        promise.withLock { $0 }?(.success("again"))
        #expect(subscriber.events == [.subscription, .value("done"), .completion(.finished)])

        let late = TrackingSubscriber<String, Never>()
        future.subscribe(late)
        #expect(late.events == [.subscription])
        late.subscription?.request(.max(1))
        #expect(late.events == [.subscription, .value("done"), .completion(.finished)])
    }

    @Test func futureFailureNeedsNoDemand() {
        let future = Future<Int, TestError> { $0(.failure(TestError(code: 9))) }
        let subscriber = TrackingSubscriber<Int, TestError>()
        future.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(TestError(code: 9)))])
    }

    @Test func futureFulfilledFromAnotherThread() async {
        let future = Future<Int, Never> { promise in
            DispatchQueue.global().async { promise(.success(42)) }
        }
        let signal = Signal()
        let value = Locked(0)
        let cancellable = future.sink { received in
            value.withLock { $0 = received }
            signal.raise()
        }
        await signal.wait()
        #expect(value.withLock { $0 } == 42)
        cancellable.cancel()
    }

    @Test func cancelledSubscriberGetsNothing() {
        let promise = Locked<Future<Int, Never>.Promise?>(nil)
        let future = Future<Int, Never> { fulfil in promise.withLock { $0 = fulfil } }
        let subscriber = TrackingSubscriber<Int, Never>(demand: .unlimited)
        future.subscribe(subscriber)
        subscriber.subscription?.cancel()
        promise.withLock { $0 }?(.success(1))
        #expect(subscriber.events == [.subscription])
    }

    @Test func deferredCreatesAPublisherPerSubscriber() {
        let created = Locked(0)
        let deferred = Deferred { () -> Just<Int> in
            let count = created.withLock {
                $0 += 1
                return $0
            }
            return Just(count)
        }
        #expect(created.withLock { $0 } == 0)
        let first = TrackingSubscriber<Int, Never>(demand: .unlimited)
        let second = TrackingSubscriber<Int, Never>(demand: .unlimited)
        deferred.subscribe(first)
        deferred.subscribe(second)
        #expect(first.values == [1])
        #expect(second.values == [2])
    }
}
