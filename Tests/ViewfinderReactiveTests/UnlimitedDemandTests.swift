import Dispatch
import Testing
import ViewfinderReactive
import ViewfinderSystem

/// A custom publisher learns that a subscriber gave up pacing when its subscription's `request(_:)` sees
/// `.unlimited`: the operators pass demand on unchanged.
@Suite(.timeLimit(.minutes(1))) struct UnlimitedDemandTests {
    @Test func sinkAfterOperatorsReachesThePublisherAsUnlimited() {
        let source = TrackingPublisher<Int, Never>()
        let cancellable =
            source
            .map { $0 + 1 }
            .filter { $0 > 0 }
            .compactMap { $0 }
            .removeDuplicates()
            .handleEvents()
            .prefix(10)
            .receive(on: DispatchQueue(label: "hop"))
            .eraseToAnyPublisher()
            .sink { _ in }
        #expect(source.events == [.request(.unlimited)])
        cancellable.cancel()
    }

    @Test func combinedPublishersEachSeeTheDemand() {
        let a = TrackingPublisher<Int, Never>()
        let b = TrackingPublisher<Int, Never>()
        let c = TrackingPublisher<Int, Never>()
        let unlimited = a.combineLatest(b).combineLatest(c).flatten().sink { _ in }
        #expect([a, b, c].map(\.events) == Array(repeating: [.request(.unlimited)], count: 3))
        unlimited.cancel()
    }

    @Test func readyHandlerAfterReceiveOnReachesThePublisherAsOne() {
        let source = TrackingPublisher<Int, Never>()
        let cancellable = source.map { $0 }.receive(on: DispatchQueue(label: "hop")).sinkWithReadyHandler { _ in
        } receiveValue: { _, ready in
            ready()
        }
        #expect(source.events == [.request(.max(1))])
        cancellable.cancel()
    }

    @Test func livePublisherWarnsOnceForUnlimitedDemand() async {
        let liveView = LiveViewPublisher(limit: 3)
        let ended = Signal()
        let cancellable = liveView.receive(on: DispatchQueue.global()).sink(
            receiveCompletion: { _ in ended.raise() },
            receiveValue: { _ in }
        )
        await ended.wait()
        #expect(liveView.warnings.count == 1)
        cancellable.cancel()
    }

    @Test func subjectBasedPublisherSeesDemandThroughHandleEvents() {
        let frames = PassthroughSubject<Int, Never>()
        let warnings = Locked(0)
        let publisher = frames.handleEvents(receiveRequest: { demand in
            if demand == .unlimited { warnings.withLock { $0 += 1 } }
        })
        let paced = publisher.sinkWithReadyHandler { _ in
        } receiveValue: { _, ready in
            ready()
        }
        #expect(warnings.withLock { $0 } == 0)
        let unpaced = publisher.sink { _ in }
        #expect(warnings.withLock { $0 } == 1)
        paced.cancel()
        unpaced.cancel()
    }
}
