import Dispatch
import Testing
import ViewfinderReactive
import ViewfinderSystem

@Suite(.timeLimit(.minutes(1))) struct SinkTests {
    @Test func sinkAsksForUnlimitedAndReceivesEverything() {
        let upstream = TrackingPublisher<Int, TestError>()
        let values = Locked<[Int]>([])
        let completions = Locked<[Subscribers.Completion<TestError>]>([])
        let cancellable = upstream.sink { completion in
            completions.withLock { $0.append(completion) }
        } receiveValue: { value in
            values.withLock { $0.append(value) }
        }
        #expect(upstream.events == [.request(.unlimited)])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(TestError()))
        upstream.send(completion: .finished)
        #expect(values.withLock { $0 } == [1, 2])
        #expect(completions.withLock { $0 } == [.failure(TestError())])
        cancellable.cancel()
        #expect(upstream.events == [.request(.unlimited)])
    }

    @Test func sinkIgnoresValuesAfterCancel() {
        let upstream = TrackingPublisher<Int, Never>()
        let values = Locked<[Int]>([])
        let cancellable = upstream.sink { value in values.withLock { $0.append(value) } }
        upstream.send(1)
        cancellable.cancel()
        upstream.send(2)
        #expect(values.withLock { $0 } == [1])
        #expect(upstream.events == [.request(.unlimited), .cancel])
    }

    @Test func releasingTheCancellableCancels() {
        let upstream = TrackingPublisher<Int, Never>()
        do {
            _ = upstream.sink { _ in }
        }
        #expect(upstream.events == [.request(.unlimited), .cancel])
    }

    @Test func sinkAcceptsOneSubscriptionOnly() {
        let first = TrackingPublisher<Int, Never>()
        let second = TrackingPublisher<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        first.subscribe(sink)
        second.subscribe(sink)
        #expect(first.events == [.request(.unlimited)])
        #expect(second.events == [.cancel])
    }

    @Test func assignWritesAndReleasesTheObjectAtCompletion() {
        final class Settings {
            var iso = 0
        }
        let subject = PassthroughSubject<Int, Never>()
        var settings: Settings? = Settings()
        weak let released = settings
        let cancellable = subject.assign(to: \.iso, on: settings!)
        subject.send(200)
        #expect(settings?.iso == 200)
        settings = nil
        #expect(released != nil)
        subject.send(completion: .finished)
        #expect(released == nil)
        cancellable.cancel()
    }

    @Test func assignStopsAfterCancel() {
        final class Box {
            var value = ""
        }
        let box = Box()
        let upstream = TrackingPublisher<String, Never>()
        let cancellable = upstream.assign(to: \.value, on: box)
        upstream.send("a")
        cancellable.cancel()
        upstream.send("b")
        #expect(box.value == "a")
        #expect(upstream.events == [.request(.unlimited), .cancel])
    }

    @Test func readyHandlerRequestsOneValueAtATimeAndOnlyOncePerValue() {
        let upstream = TrackingPublisher<Int, Never>()
        let handlers = Locked<[Subscribers.ReadyHandler]>([])
        let cancellable = upstream.sinkWithReadyHandler { _ in
        } receiveValue: { _, ready in
            handlers.withLock { $0.append(ready) }
        }
        #expect(upstream.events == [.request(.max(1))])
        upstream.send(1)
        #expect(upstream.requested == .max(1))
        let first = handlers.withLock { $0[0] }
        first()
        first()
        #expect(upstream.events == [.request(.max(1)), .request(.max(1))])
        upstream.send(2)
        first()
        #expect(upstream.requested == .max(2))
        handlers.withLock { $0[1] }()
        #expect(upstream.requested == .max(3))
        cancellable.cancel()
        #expect(upstream.isCancelled)
    }

    @Test func readyHandlerDeliversCompletionOnce() {
        let completions = Locked(0)
        let cancellable = [1, 2].publisher.sinkWithReadyHandler { _ in
            completions.withLock { $0 += 1 }
        } receiveValue: { _, ready in
            ready()
        }
        #expect(completions.withLock { $0 } == 1)
        cancellable.cancel()
    }

    @Test func readyHandlerPacesASequence() {
        let values = Locked<[Int]>([])
        let pending = Locked<Subscribers.ReadyHandler?>(nil)
        let cancellable = (1...100).publisher.sinkWithReadyHandler { _ in
        } receiveValue: { value, ready in
            values.withLock { $0.append(value) }
            pending.withLock { $0 = ready }
        }
        #expect(values.withLock { $0 } == [1])
        let first = pending.withLock { $0 }
        first?()
        first?()
        #expect(values.withLock { $0 } == [1, 2])
        cancellable.cancel()
        pending.withLock { $0 }?()
        #expect(values.withLock { $0 } == [1, 2])
    }
}
