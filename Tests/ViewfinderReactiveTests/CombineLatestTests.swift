import Testing
import ViewfinderReactive

/// Pairs compare as a flat description: tuples are not Equatable.
private func describe<A, B>(_ pairs: [(A, B)]) -> [String] {
    pairs.map { "\($0.0)\($0.1)" }
}

@Suite struct CombineLatestTests {
    @Test func waitsForEveryPublisherThenEmitsOnEachValue() {
        let letters = PassthroughSubject<String, Never>()
        let numbers = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<(String, Int), Never>(demand: .unlimited)
        letters.combineLatest(numbers).subscribe(subscriber)
        letters.send("a")
        letters.send("b")
        numbers.send(1)
        numbers.send(2)
        letters.send("c")
        #expect(describe(subscriber.values) == ["b1", "b2", "c2"])
    }

    @Test func passesDemandToEveryUpstream() {
        let a = TrackingPublisher<Int, Never>()
        let b = TrackingPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<(Int, Int), Never>(demand: .max(2))
        a.combineLatest(b).subscribe(subscriber)
        #expect(a.events == [.request(.max(2))])
        #expect(b.events == [.request(.max(2))])
        subscriber.subscription?.request(.max(1))
        #expect(a.requested == .max(3))
        #expect(b.requested == .max(3))
    }

    @Test func neverDeliversMoreThanDemandedAndKeepsTheNewestCombination() {
        let a = PassthroughSubject<Int, Never>()
        let b = CurrentValueSubject<Int, Never>(0)
        let subscriber = TrackingSubscriber<(Int, Int), Never>(demand: .max(1))
        a.combineLatest(b).subscribe(subscriber)
        a.send(1)
        b.send(5)
        #expect(describe(subscriber.values) == ["10"])
        subscriber.subscription?.request(.max(1))
        #expect(describe(subscriber.values) == ["10", "15"])
    }

    @Test func finishesWhenEveryUpstreamHasFinished() {
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let subscriber = TrackingSubscriber<(Int, Int), Never>(demand: .unlimited)
        a.combineLatest(b).subscribe(subscriber)
        a.send(1)
        b.send(2)
        a.send(completion: .finished)
        #expect(subscriber.completions.isEmpty)
        b.send(3)
        b.send(completion: .finished)
        #expect(describe(subscriber.values) == ["12", "13"])
        #expect(subscriber.completions == [.finished])
    }

    @Test func failsWhenAnyUpstreamFailsAndCancelsTheOthers() {
        let a = TrackingPublisher<Int, TestError>()
        let b = TrackingPublisher<Int, TestError>()
        let subscriber = TrackingSubscriber<(Int, Int), TestError>(demand: .unlimited)
        a.combineLatest(b).subscribe(subscriber)
        b.send(completion: .failure(TestError(code: 4)))
        a.send(1)
        #expect(subscriber.completions == [.failure(TestError(code: 4))])
        #expect(subscriber.values.isEmpty)
        #expect(a.isCancelled)
        #expect(!b.isCancelled)
    }

    @Test func cancelCancelsEveryUpstream() {
        let a = TrackingPublisher<Int, Never>()
        let b = TrackingPublisher<Int, Never>()
        let subscriber = TrackingSubscriber<(Int, Int), Never>(demand: .unlimited)
        a.combineLatest(b).subscribe(subscriber)
        subscriber.subscription?.cancel()
        a.send(1)
        b.send(2)
        #expect(a.isCancelled)
        #expect(b.isCancelled)
        #expect(subscriber.values.isEmpty)
    }

    @Test func threeAndFourInputs() {
        let a = CurrentValueSubject<Int, Never>(1)
        let b = CurrentValueSubject<String, Never>("x")
        let c = CurrentValueSubject<Bool, Never>(true)
        let d = CurrentValueSubject<Double, Never>(0.5)
        let three = TrackingSubscriber<(Int, String, Bool), Never>(demand: .unlimited)
        let four = TrackingSubscriber<(Int, String, Bool, Double), Never>(demand: .unlimited)
        a.combineLatest(b, c).subscribe(three)
        a.combineLatest(b, c, d).subscribe(four)
        c.send(false)
        #expect(three.values.map { "\($0.0)\($0.1)\($0.2)" } == ["1xtrue", "1xfalse"])
        #expect(four.values.map { "\($0.0)\($0.1)\($0.2)\($0.3)" } == ["1xtrue0.5", "1xfalse0.5"])
    }

    @Test func transformVariants() {
        let a = CurrentValueSubject<Int, Never>(1)
        let b = CurrentValueSubject<Int, Never>(10)
        let c = CurrentValueSubject<Int, Never>(100)
        let d = CurrentValueSubject<Int, Never>(1000)
        let two = TrackingSubscriber<Int, Never>(demand: .unlimited)
        let three = TrackingSubscriber<Int, Never>(demand: .unlimited)
        let four = TrackingSubscriber<Int, Never>(demand: .unlimited)
        a.combineLatest(b, +).subscribe(two)
        a.combineLatest(b, c) { $0 + $1 + $2 }.subscribe(three)
        a.combineLatest(b, c, d) { $0 + $1 + $2 + $3 }.subscribe(four)
        a.send(2)
        #expect(two.values == [11, 12])
        #expect(three.values == [111, 112])
        #expect(four.values == [1111, 1112])
    }

    @Test func upstreamThatFailsAtOnceStillFollowsTheSubscription() {
        let subscriber = TrackingSubscriber<(Int, Int), TestError>(demand: .unlimited)
        Fail<Int, TestError>(error: TestError()).combineLatest(Just(1).setFailure()).subscribe(subscriber)
        #expect(subscriber.events.map(\.description) == ["subscription", "failure(TestError(code: 1))"])
    }
}

extension Just {
    /// This value as a publisher that could fail with ``TestError``.
    fileprivate func setFailure() -> Future<Output, TestError> {
        let output = self.output
        return Future { $0(.success(output)) }
    }
}
