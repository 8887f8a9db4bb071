import Testing
import ViewfinderReactive
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderCore

/// A live view subscriber whose demand the test decides, recording the frames' numbers and the completion.
final class FrameSubscriber: Subscriber, Sendable {
    typealias Input = LiveViewFrame
    typealias Failure = LiveViewTerminationReason

    private struct State: @unchecked Sendable {
        var subscription: (any Subscription)?
        var frames: [UInt64] = []
        var completion: Subscribers.Completion<LiveViewTerminationReason>?
    }

    private let state = Locked(State())

    var frames: [UInt64] { state.withLock { $0.frames } }
    var completion: Subscribers.Completion<LiveViewTerminationReason>? { state.withLock { $0.completion } }

    func receive(subscription: any Subscription) {
        state.withLock { $0.subscription = subscription }
    }

    func receive(_ input: LiveViewFrame) -> Subscribers.Demand {
        state.withLock { $0.frames.append(input.sequenceNumber) }
        return .none
    }

    func receive(completion: Subscribers.Completion<LiveViewTerminationReason>) {
        state.withLock { $0.completion = completion }
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.subscription }?.request(demand)
    }

    func cancel() {
        state.withLock { $0.subscription }?.cancel()
    }

    /// A subscriber of `publisher` that has received one frame.
    static func receivingOneFrame(from publisher: LiveViewPublisher) async throws -> FrameSubscriber {
        let subscriber = FrameSubscriber()
        publisher.subscribe(subscriber)
        subscriber.request(.max(1))
        try await waitUntil("a frame") { subscriber.frames.count == 1 }
        return subscriber
    }
}

/// The live view publisher's rules, against a live view held in memory.
@Suite(.timeLimit(.minutes(2))) struct LiveViewPublisherTests {
    static func camera(gracePeriod: Duration = .milliseconds(250), warnings: Recorder<String>? = nil) -> FakeCamera {
        FakeCamera(
            liveViewConfiguration: LiveViewPublisher.Configuration(
                gracePeriod: gracePeriod, retryDelay: .milliseconds(10),
                warningHandler: { warnings?.append($0) }))
    }

    @Test func everyCallGivesTheSamePublisherAndOptionsAccumulate() {
        let camera = Self.camera()
        let first = camera.liveViewPublisher(options: [.skipImageDecoding: true])
        let second = camera.liveViewPublisher(options: [.maximumFramesPerSecond: 12.5])
        #expect(first === second)
        #expect(camera.liveViewPublisher === first)
        camera.applyLiveViewOptions([.favorHighFrameRate: true, .skipImageDecoding: false])
        #expect(
            first.options == [.skipImageDecoding: false, .maximumFramesPerSecond: 12.5, .favorHighFrameRate: true])
        let settings = LiveViewSettings(options: first.options)
        #expect(settings == LiveViewSettings(options: [.maximumFramesPerSecond: 12.5, .favorHighFrameRate: true]))
        #expect(settings.maximumFramesPerSecond == 12.5)
        #expect(LiveViewSettings(options: [.maximumFramesPerSecond: 0]).maximumFramesPerSecond == nil)
        #expect(LiveViewSettings(options: [.maximumFramesPerSecond: true]).maximumFramesPerSecond == nil)
    }

    @Test func nothingIsFetchedWithoutDemandAndExactlyWhatIsDemandedWithIt() async throws {
        let camera = Self.camera()
        let subscriber = FrameSubscriber()
        camera.liveViewPublisher.subscribe(subscriber)
        // A subscriber without demand starts nothing that could fetch.
        #expect(camera.liveViewPublisher.statistics.isWaitingForDemand)
        #expect(camera.liveView.starts == 0)
        #expect(camera.liveView.fetches == 0)

        subscriber.request(.max(3))
        try await waitUntil("three frames") { subscriber.frames.count == 3 }
        #expect(subscriber.frames == [1, 2, 3])
        #expect(camera.liveView.starts == 1)
        // With no demand left, the pump waits for more; live view stays on for the subscriber.
        try await waitUntil("the pump to wait for demand") { camera.liveViewPublisher.statistics.isWaitingForDemand }
        #expect(camera.liveView.fetches == 3)
        #expect(camera.liveViewPublisher.statistics.isStreaming)

        subscriber.request(.max(1))
        try await waitUntil("a fourth frame") { subscriber.frames.count == 4 }
        #expect(camera.liveView.fetches == 4)
        subscriber.cancel()
    }

    @Test func eachFrameGoesToEverySubscriberWithDemand() async throws {
        let camera = Self.camera()
        let both = FrameSubscriber()
        let one = FrameSubscriber()
        camera.liveViewPublisher.subscribe(both)
        camera.liveViewPublisher.subscribe(one)
        one.request(.max(1))
        both.request(.max(2))
        try await waitUntil("both frames") { both.frames.count == 2 }
        #expect(one.frames == [1])
        #expect(both.frames == [1, 2])
        #expect(camera.liveView.fetches == 2)
        #expect(camera.liveViewPublisher.statistics.framesDelivered == 3)
        one.cancel()
        both.cancel()
    }

    @Test func unlimitedDemandIsWarnedAboutOnce() async throws {
        let warnings = Recorder<String>()
        let camera = Self.camera(warnings: warnings)
        let received = Recorder<UInt64>()
        let first = camera.liveViewPublisher.sink { _ in
        } receiveValue: {
            received.append($0.sequenceNumber)
        }
        try await waitUntil("frames to flow") { received.count >= 5 }
        let second = camera.liveViewPublisher.sink { _ in
        } receiveValue: { _ in
        }
        let paced = camera.liveViewPublisher.sinkWithReadyHandler { _ in
        } receiveValue: { _, ready in
            ready()
        }
        try await waitUntil("more frames") { received.count >= 10 }
        #expect(warnings.all == [LiveViewPublisher.unlimitedDemandWarning])
        #expect(camera.liveViewPublisher.statistics.unlimitedDemandWarningCount == 1)
        first.cancel()
        second.cancel()
        paced.cancel()
    }

    @Test func liveViewStopsAfterTheGracePeriodButNotWhenASubscriberReturnsInTime() async throws {
        let camera = Self.camera(gracePeriod: .seconds(2))
        let first = try await FrameSubscriber.receivingOneFrame(from: camera.liveViewPublisher)
        first.cancel()
        // A subscriber rebuilt at once keeps live view on.
        let second = try await FrameSubscriber.receivingOneFrame(from: camera.liveViewPublisher)
        #expect(camera.liveView.starts == 1)
        #expect(camera.liveView.ends == 0)

        second.cancel()
        try await waitUntil("live view to end after the grace period") { camera.liveView.ends == 1 }
        #expect(camera.liveViewPublisher.statistics.stopCount == 1)
        #expect(!camera.liveViewPublisher.statistics.isStreaming)

        // A later subscriber starts it again.
        let third = try await FrameSubscriber.receivingOneFrame(from: camera.liveViewPublisher)
        #expect(camera.liveView.starts == 2)
        third.cancel()
    }

    @Test func theGracePeriodIsMeasuredFromTheLastSubscriberLeaving() async throws {
        let camera = Self.camera(gracePeriod: .milliseconds(300))
        let subscriber = try await FrameSubscriber.receivingOneFrame(from: camera.liveViewPublisher)
        let left = ContinuousClock.now
        subscriber.cancel()
        try await waitUntil("live view to end") { camera.liveView.ends == 1 }
        // Never before the grace period has passed (a lower bound, which a slow machine cannot break).
        #expect(left.duration(to: .now) >= .milliseconds(300))
    }

    @Test func aFailedStartIsRetried() async throws {
        let camera = Self.camera()
        camera.liveView.failNextStarts(with: [
            ViewfinderError(.deviceBusy, "busy"), ViewfinderError(.timeout, "not ready"),
        ])
        let subscriber = try await FrameSubscriber.receivingOneFrame(from: camera.liveViewPublisher)
        let statistics = camera.liveViewPublisher.statistics
        #expect(statistics.failedStartCount == 2)
        #expect(statistics.startCount == 1)
        #expect(subscriber.completion == nil)
        subscriber.cancel()
    }

    @Test func aStartThatKeepsFailingFailsTheSubscribersWithTheError() async throws {
        let camera = Self.camera()
        let busy = ViewfinderError(.deviceBusy, "the camera is busy")
        camera.liveView.failNextStarts(with: Array(repeating: busy, count: 10))
        let subscriber = FrameSubscriber()
        camera.liveViewPublisher.subscribe(subscriber)
        subscriber.request(.max(1))
        try await waitUntil("the failure") { subscriber.completion != nil }
        guard case .failure(.failed(let error)) = subscriber.completion else {
            Issue.record("expected a failure, got \(String(describing: subscriber.completion))")
            return
        }
        #expect(error.code == .deviceBusy)
        #expect(error.message.contains("after 4 attempts"))
        #expect(camera.liveViewPublisher.statistics.failedStartCount == 4)
        // Live view may have been left half started: it is ended.
        #expect(camera.liveView.ends == 1)
    }

    @Test func aCameraThatIsNotConnectedFailsAtOnce() async throws {
        let camera = Self.camera()
        camera.liveView.failNextStarts(with: [ViewfinderError(.notConnected, "not connected")])
        let subscriber = FrameSubscriber()
        camera.liveViewPublisher.subscribe(subscriber)
        subscriber.request(.max(1))
        try await waitUntil("the failure") { subscriber.completion != nil }
        #expect(
            subscriber.completion
                == .failure(.failed(ViewfinderError(.notConnected, "not connected (after 1 attempt)"))))
        #expect(camera.liveViewPublisher.statistics.failedStartCount == 1)
    }

    @Test func terminationEndsEverySubscriberNormallyOrWithTheError() async throws {
        let camera = Self.camera()
        let subscriber = try await FrameSubscriber.receivingOneFrame(from: camera.liveViewPublisher)
        camera.liveViewPublisher.terminate(.endedNormally)
        try await waitUntil("the end") { subscriber.completion != nil }
        #expect(subscriber.completion == .finished)

        let next = FrameSubscriber()
        camera.liveViewPublisher.subscribe(next)
        let gone = ViewfinderError(.timeout, "the camera stopped answering")
        camera.liveViewPublisher.terminate(.failed(gone))
        try await waitUntil("the failure") { next.completion != nil }
        #expect(next.completion == .failure(.failed(gone)))
        #expect(camera.liveViewPublisher.statistics.subscriberCount == 0)
    }

    @Test func aFrameThatCannotBeFetchedEndsLiveViewWithTheError() async throws {
        let camera = Self.camera()
        let subscriber = try await FrameSubscriber.receivingOneFrame(from: camera.liveViewPublisher)
        let broken = ViewfinderError(.malformedData, "no JPEG in the frame")
        camera.liveView.failFetches(with: broken)
        subscriber.request(.max(1))
        try await waitUntil("the failure") { subscriber.completion != nil }
        #expect(subscriber.completion == .failure(.failed(broken)))
        #expect(camera.liveView.ends == 1)
        #expect(camera.liveViewPublisher.statistics.stopCount == 1)
    }

    @Test func theFrameRateLimitSpacesFetches() async throws {
        let camera = Self.camera()
        let subscriber = FrameSubscriber()
        camera.liveViewPublisher(options: [.maximumFramesPerSecond: 20]).subscribe(subscriber)
        subscriber.request(.max(5))
        try await waitUntil("five frames") { subscriber.frames.count == 5 }
        let times = camera.liveView.fetchTimes
        // Never closer than the limit allows (a lower bound, which a slow machine cannot break).
        for (earlier, later) in zip(times, times.dropFirst()) {
            #expect(earlier.duration(to: later) >= .milliseconds(50))
        }
        subscriber.cancel()
    }

    @Test func optionsReachTheBackendFromTheNextFrame() async throws {
        let camera = Self.camera()
        let subscriber = try await FrameSubscriber.receivingOneFrame(from: camera.liveViewPublisher)
        camera.applyLiveViewOptions([.skipImageDecoding: true])
        subscriber.request(.max(1))
        try await waitUntil("a second frame") { subscriber.frames.count == 2 }
        #expect(camera.liveView.settings.map(\.skipsImageDecoding) == [false, true])
        subscriber.cancel()
    }
}
