import Testing
import ViewfinderCore

/// Observer-style APIs read as async sequences.
@Suite struct ObservingStreamTests {
    @Test func anObserverAPIReadsAsAnAsyncSequenceInOrder() async {
        let registry = CameraObserverRegistry<Int>()
        let stream = registry.events()
        #expect(registry.hasObservers)
        for event in 1...3 { registry.notify(event) }
        var received: [Int] = []
        for await event in stream {
            received.append(event)
            if received.count == 3 { break }
        }
        #expect(received == [1, 2, 3])
    }

    @Test func theObserverGoesWhenTheStreamIsReleased() async {
        let registry = CameraObserverRegistry<Int>()
        func firstEvent() async -> Int? {
            let stream = AsyncStream(observing: { registry.addObserver($0) })
            registry.notify(7)
            return await stream.first { _ in true }
        }
        #expect(await firstEvent() == 7)
        #expect(!registry.hasObservers)
    }

    @Test func theObserverGoesWhenTheReadingTaskIsCancelled() async {
        let registry = CameraObserverRegistry<Int>()
        let stream = registry.events()
        let reader = Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        reader.cancel()
        _ = await reader.value
        #expect(!registry.hasObservers)
        withExtendedLifetime(stream) {}
    }
}
