import Dispatch
import Synchronization
import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSystem

/// A subscriber that asks for values only when the test says so.
final class ManualSubscriber<Input: Sendable>: Subscriber, Sendable {
    typealias Failure = Never

    private struct SubscriptionReference: @unchecked Sendable {
        let subscription: any Subscription
    }

    private let subscription = Locked<SubscriptionReference?>(nil)
    private let received = Locked<[Input]>([])
    /// The demand to return from each delivery.
    let demandPerValue: Subscribers.Demand

    init(demandPerValue: Subscribers.Demand = .none) {
        self.demandPerValue = demandPerValue
    }

    var values: [Input] { received.withLock { $0 } }
    var isSubscribed: Bool { subscription.withLock { $0 != nil } }

    func receive(subscription: any Subscription) {
        self.subscription.withLock { $0 = SubscriptionReference(subscription: subscription) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        received.withLock { $0.append(input) }
        return demandPerValue
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    func request(_ demand: Subscribers.Demand) {
        subscription.withLock { $0 }?.subscription.request(demand)
    }

    func cancel() {
        subscription.withLock { $0 }?.subscription.cancel()
    }
}

@Suite struct CameraPublisherTests {
    @Test func nothingIsObservedOrSentBeforeDemand() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        let subscriber = ManualSubscriber<ISOValue?>()
        camera.commonValuePublisher(for: .iso).subscribe(subscriber)
        #expect(subscriber.isSubscribed)
        #expect(!iso.hasObservers)
        camera.cameraReports(.iso, iso.validValue(matchingCommonValue: .iso800))
        #expect(subscriber.values.isEmpty)

        subscriber.request(.max(1))
        #expect(subscriber.values == [.iso800])
        #expect(iso.hasObservers)

        camera.cameraReports(.iso, iso.validValue(matchingCommonValue: .iso1600))
        camera.cameraReports(.iso, iso.validValue(matchingCommonValue: .iso3200))
        #expect(subscriber.values == [.iso800])
        subscriber.request(.max(1))
        #expect(subscriber.values == [.iso800, .iso3200])
        subscriber.request(.max(1))
        #expect(subscriber.values.count == 2)
        camera.cameraReports(.iso, iso.validValue(matchingCommonValue: .iso6400))
        #expect(subscriber.values == [.iso800, .iso3200, .iso6400])

        subscriber.cancel()
        #expect(!iso.hasObservers)
        subscriber.request(.max(1))
        camera.cameraReports(.iso, iso.validValue(matchingCommonValue: .iso100))
        #expect(subscriber.values.count == 3)
    }

    @Test func demandReturnedFromEachValueKeepsValuesComing() async throws {
        let camera = try await connectedCamera()
        let subscriber = ManualSubscriber<ISOValue?>(demandPerValue: .max(1))
        camera.commonValuePublisher(for: .iso).subscribe(subscriber)
        subscriber.request(.max(1))
        try await camera.property(for: .iso).setValue(.iso200)
        try await camera.property(for: .iso).increment()
        #expect(subscriber.values == [.iso400, .iso200, .iso400])
    }

    @Test func releasingTheCancellableEndsTheObservation() async throws {
        let camera = try await connectedCamera()
        let shutter = camera.property(for: .shutterSpeed)
        let shown = Locked<[String]>([])
        var cancellable: AnyCancellable? = camera.valuePublisher(for: .shutterSpeed).sink { value in
            shown.withLock { $0.append(value?.localizedDisplayValue ?? "nil") }
        }
        #expect(shutter.hasObservers)
        try await shutter.increment()
        camera.loseConnection(ViewfinderError(.disconnected, "gone"))
        #expect(shown.withLock { $0 } == ["1/250", "1/500", "nil"])
        #expect(cancellable != nil)
        cancellable = nil
        #expect(!shutter.hasObservers)
    }

    @Test func eachPublisherSendsItsOwnKindOfChange() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        let values = ManualSubscriber<String?>(demandPerValue: .max(1))
        let effective = ManualSubscriber<String?>(demandPerValue: .max(1))
        let effectiveCommon = ManualSubscriber<ISOValue?>(demandPerValue: .max(1))
        let settable = ManualSubscriber<Int>(demandPerValue: .max(1))
        let whole = ManualSubscriber<String>(demandPerValue: .max(1))
        camera.valuePublisher(for: .iso).map { $0?.localizedDisplayValue }.subscribe(values)
        camera.effectiveValuePublisher(for: .iso).map { $0?.localizedDisplayValue }.subscribe(effective)
        camera.effectiveCommonValuePublisher(for: .iso).subscribe(effectiveCommon)
        camera.settableValuesPublisher(for: .iso).map(\.count).subscribe(settable)
        camera.publisher(for: .iso).map { $0.pendingValue?.localizedDisplayValue ?? "-" }.subscribe(whole)
        for subscriber in [values, effective] { subscriber.request(.max(1)) }
        effectiveCommon.request(.max(1))
        settable.request(.max(1))
        whole.request(.max(1))

        let setting = await startUnansweredSet(on: camera) { try await iso.setValue(.iso800) }
        setting.cancel()
        _ = await setting.value
        iso.update(validSettableValues: CameraPropertySettableValues(Array(iso.validSettableValues.prefix(3))))

        #expect(values.values == ["ISO 400"])
        #expect(effective.values == ["ISO 400", "ISO 800", "ISO 400"])
        #expect(effectiveCommon.values == [.iso400, .iso800, .iso400])
        #expect(settable.values == [9, 3])
        #expect(whole.values == ["-", "ISO 800", "-", "-"])
    }

    @Test func connectionStateIsPublished() async throws {
        let camera = FakeCamera()
        let states = ManualSubscriber<CameraConnectionState>(demandPerValue: .max(1))
        camera.connectionStatePublisher().subscribe(states)
        states.request(.max(1))
        try await camera.connect()
        try await camera.disconnect()
        #expect(states.values == [.notConnected, .connecting, .connected, .disconnecting, .notConnected])
    }

    @Test func concurrentChangesReachTheSubscriberOneAtATime() async throws {
        let camera = try await connectedCamera()
        let iso = camera.property(for: .iso)
        let values = Array(iso.validSettableValues)
        let inside = Atomic(0)
        let overlaps = Atomic(0)
        let last = Locked<TypedCameraPropertyValue<ISOValue>?>(nil)
        let cancellable = iso.valuePublisher().sink { value in
            if inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            last.withLock { $0 = value }
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<250 {
                iso.update(currentValue: values[(thread * 7 + index) % values.count])
            }
        }
        iso.update(currentValue: values[0])
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(last.withLock { $0 } == values[0])
        withExtendedLifetime(cancellable) {}
    }
}
