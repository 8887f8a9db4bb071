import Dispatch
import Synchronization
import Testing
import ViewfinderCore
import ViewfinderSystem

@Suite struct CameraObserverRegistryTests {
    @Test func deliversInOrderUntilTheTokenGoes() {
        let registry = CameraObserverRegistry<Int>()
        let received = Locked<[Int]>([])
        var token: ObservationToken? = registry.addObserver { event in received.withLock { $0.append(event) } }
        registry.notify(1)
        registry.notify(2)
        #expect(token != nil && registry.hasObservers)
        token = nil
        registry.notify(3)
        #expect(received.withLock { $0 } == [1, 2])
        #expect(!registry.hasObservers)
    }

    @Test func cancellingStopsAtOnceAndTwiceIsHarmless() {
        let registry = CameraObserverRegistry<Int>()
        let count = Atomic(0)
        let token = registry.addObserver { _ in count.add(1, ordering: .relaxed) }
        registry.notify(1)
        token.cancel()
        token.cancel()
        registry.notify(2)
        #expect(count.load(ordering: .relaxed) == 1)
        #expect(!registry.hasObservers)
    }

    @Test func observerRemovedDuringDeliveryIsNotCalledAfterwards() {
        let registry = CameraObserverRegistry<Int>()
        let laterCalls = Atomic(0)
        let laterToken = Locked<ObservationToken?>(nil)
        let first = registry.addObserver { _ in laterToken.withLock { $0 }?.cancel() }
        laterToken.withLock { $0 = registry.addObserver { _ in laterCalls.add(1, ordering: .relaxed) } }
        registry.notify(1)
        #expect(laterCalls.load(ordering: .relaxed) == 0)
        withExtendedLifetime(first) {}
    }

    @Test func eventsCausedByAnObserverWaitTheirTurn() {
        let registry = CameraObserverRegistry<Int>()
        let received = Locked<[String]>([])
        let token = registry.addObserver { event in
            received.withLock { $0.append("start \(event)") }
            if event == 1 {
                registry.notify(2)
            }
            received.withLock { $0.append("end \(event)") }
        }
        registry.notify(1)
        #expect(received.withLock { $0 } == ["start 1", "end 1", "start 2", "end 2"])
        withExtendedLifetime(token) {}
    }

    @Test func concurrentNotifiersNeverOverlapAndCoalesce() {
        let registry = CameraObserverRegistry<Set<Int>> { $0.union($1) }
        let inside = Atomic(0)
        let overlaps = Atomic(0)
        let seen = Locked(Set<Int>())
        let token = registry.addObserver { events in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            seen.withLock { $0.formUnion(events) }
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<200 {
                registry.notify([thread * 1000 + index])
            }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(seen.withLock { $0.count } == 1600)
        withExtendedLifetime(token) {}
    }

    @Test func listsWaitingForABusyObserverKeepTheNewestUpToTheLimitAndCountTheRest() {
        let registry = CameraObserverRegistry<[Int]>(keepingNewest: 4)
        let received = Locked<[[Int]]>([])
        let token = registry.addObserver { items in
            received.withLock { $0.append(items) }
            // The observer is still busy with the first list: these wait for it, the oldest beyond four dropped.
            if items == [0] {
                for item in 1...6 { registry.notify([item]) }
                registry.notify([7, 8])
                #expect(registry.droppedCount == 4)
            }
        }
        registry.notify([0])
        #expect(received.withLock { $0 } == [[0], [5, 6, 7, 8]])
        #expect(registry.droppedCount == 4)
        registry.notify(Array(10..<20))
        #expect(received.withLock { $0.last } == Array(10..<20))
        #expect(registry.droppedCount == 4)
        withExtendedLifetime(token) {}
    }

    @Test func aListLongerThanTheLimitWaitsAsItsNewestItems() {
        let registry = CameraObserverRegistry<[Int]>(keepingNewest: 3)
        let received = Locked<[[Int]]>([])
        let token = registry.addObserver { items in
            received.withLock { $0.append(items) }
            if items == [0] { registry.notify(Array(1...5)) }
        }
        registry.notify([0])
        #expect(received.withLock { $0 } == [[0], [3, 4, 5]])
        #expect(registry.droppedCount == 2)
        withExtendedLifetime(token) {}
    }

    @Test func coalescingRegistriesDropNothingTheyCount() {
        let registry = CameraObserverRegistry<Int>()
        let received = Locked<[Int]>([])
        let token = registry.addObserver { event in
            received.withLock { $0.append(event) }
            if event == 0 { for next in 1...3 { registry.notify(next) } }
        }
        registry.notify(0)
        #expect(received.withLock { $0 } == [0, 3])
        #expect(registry.droppedCount == 0)
        withExtendedLifetime(token) {}
    }
}
