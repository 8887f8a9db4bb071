import Testing
import ViewfinderReactive
import ViewfinderSystem

@Suite struct AnyCancellableTests {
    @Test func cancelsOnceWhenCancelledTwice() {
        let count = Locked(0)
        let cancellable = AnyCancellable { count.withLock { $0 += 1 } }
        cancellable.cancel()
        cancellable.cancel()
        #expect(count.withLock { $0 } == 1)
    }

    @Test func cancelsWhenReleased() {
        let count = Locked(0)
        do {
            _ = AnyCancellable { count.withLock { $0 += 1 } }
        }
        #expect(count.withLock { $0 } == 1)
    }

    @Test func wrapsACancellable() {
        let publisher = TrackingPublisher<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        publisher.subscribe(sink)
        AnyCancellable(sink).cancel()
        #expect(publisher.isCancelled)
    }

    @Test func storesInSetsAndArrays() {
        var set = Set<AnyCancellable>()
        var array = [AnyCancellable]()
        let count = Locked(0)
        AnyCancellable { count.withLock { $0 += 1 } }.store(in: &set)
        AnyCancellable { count.withLock { $0 += 1 } }.store(in: &array)
        #expect(set.count == 1)
        #expect(array.count == 1)
        #expect(count.withLock { $0 } == 0)
        set.removeAll()
        array.removeAll()
        #expect(count.withLock { $0 } == 2)
    }

    @Test func equalityIsIdentity() {
        let first = AnyCancellable {}
        let second = AnyCancellable {}
        #expect(first == first)
        #expect(first != second)
        #expect(Set([first, first, second]).count == 2)
    }
}
