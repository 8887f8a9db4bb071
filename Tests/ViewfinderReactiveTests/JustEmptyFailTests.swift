import Testing
import ViewfinderReactive

@Suite struct JustEmptyFailTests {
    @Test func justWaitsForDemand() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Just(7).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
        subscriber.subscription?.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(7), .completion(.finished)])
    }

    @Test func justDeliversNothingAfterCancel() {
        let subscriber = TrackingSubscriber<Int, Never>()
        Just(7).subscribe(subscriber)
        subscriber.subscription?.cancel()
        subscriber.subscription?.request(.unlimited)
        #expect(subscriber.events == [.subscription])
    }

    @Test func justIgnoresZeroDemand() {
        let subscriber = TrackingSubscriber<Int, Never>(demand: .none)
        Just(7).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
    }

    @Test func emptyFinishesAtOnceOrNever() {
        let immediate = TrackingSubscriber<Int, TestError>()
        Empty<Int, TestError>().subscribe(immediate)
        #expect(immediate.events == [.subscription, .completion(.finished)])

        let never = TrackingSubscriber<Int, TestError>(demand: .unlimited)
        Empty(completeImmediately: false, outputType: Int.self, failureType: TestError.self).subscribe(never)
        #expect(never.events == [.subscription])
    }

    @Test func failFailsAtOnce() {
        let subscriber = TrackingSubscriber<Int, TestError>()
        Fail<Int, TestError>(error: TestError(code: 3)).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.failure(TestError(code: 3)))])

        let typed = TrackingSubscriber<String, TestError>()
        Fail(outputType: String.self, failure: TestError()).subscribe(typed)
        #expect(typed.completions == [.failure(TestError())])
    }

    @Test func valuePublishersCompareByTheirContents() {
        #expect(Just(1) == Just(1))
        #expect(Just(1) != Just(2))
        #expect(Empty<Int, Never>() == Empty<Int, Never>())
        #expect(Empty<Int, Never>() != Empty<Int, Never>(completeImmediately: false))
        #expect(Fail<Int, TestError>(error: TestError(code: 1)) == Fail(error: TestError(code: 1)))
        #expect(Fail<Int, TestError>(error: TestError(code: 1)) != Fail(error: TestError(code: 2)))
        #expect([1, 2].publisher == [1, 2].publisher)
        #expect([1, 2].publisher != [2, 1].publisher)
    }
}
