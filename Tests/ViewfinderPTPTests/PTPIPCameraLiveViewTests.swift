import Dispatch
import Synchronization
import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// A subscriber that asks for nothing until the test says so.
final class IdleFrameSubscriber: Subscriber, Sendable {
    typealias Input = LiveViewFrame
    typealias Failure = LiveViewTerminationReason

    private struct State: @unchecked Sendable {
        var subscription: (any Subscription)?
        var received = 0
    }

    private let state = Locked(State())

    var received: Int { state.withLock { $0.received } }

    func receive(subscription: any Subscription) {
        state.withLock { $0.subscription = subscription }
    }

    func receive(_ input: LiveViewFrame) -> Subscribers.Demand {
        state.withLock { $0.received += 1 }
        return .none
    }

    func receive(completion: Subscribers.Completion<LiveViewTerminationReason>) {}

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.subscription }?.request(demand)
    }

    func cancel() {
        state.withLock { $0.subscription }?.cancel()
    }
}

extension SimulatedCameraTests {
    /// Nikon live view of the simulated camera through the live view publisher, over loopback TCP.
    @Suite(.timeLimit(.minutes(3))) struct PTPIPCameraLiveViewTests {
        static let nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)

        /// The camera's live view status, as the simulated camera reports it.
        static func liveViewIsOn(_ harness: CameraHarness) async throws -> Bool {
            try await harness.session.propertyValue(.nikonLiveViewStatus, of: .uint8) == .uint8(1)
        }

        @Test func framesCarryTheJPEGItsSizeATimestampAndTheDecodedImage() async throws {
            try await CameraHarness.run(Self.nikon) { harness in
                let frames = Observed<LiveViewFrame>()
                let cancellable = harness.camera.liveViewPublisher
                    .sinkWithReadyHandler { _ in
                    } receiveValue: { frame, ready in
                        frames.append(frame)
                        if frames.all.count < 3 { ready() }
                    }
                try await waitUntil("three frames") { frames.all.count == 3 }
                let all = frames.all
                #expect(all.map(\.sequenceNumber) == [1, 2, 3])
                #expect(all[0].timestamp < all[1].timestamp && all[1].timestamp < all[2].timestamp)
                for frame in all {
                    #expect(frame.jpegData.prefix(3) == [0xFF, 0xD8, 0xFF])
                    #expect(frame.jpegData.suffix(2) == [0xFF, 0xD9])
                    #expect(frame.pixelSize == Dimensions(width: 640, height: 424))
                    let image = try #require(frame.pixelBuffer)
                    #expect(image.format == .nv12FullRange)
                    #expect(image.width == 640 && image.height == 424)
                }
                #expect(try await Self.liveViewIsOn(harness))
                cancellable.cancel()
            }
        }

        @Test func framesComeOnTheSessionsCommandThreadWhichStillServesOtherCalls() async throws {
            try await CameraHarness.run(Self.nikon) { harness in
                let commandThread = try harness.camera.driverCore.connection(for: "test").session.core.commandThread
                let places = Observed<Bool>()
                let cancellable = harness.camera.liveViewPublisher(options: [.maximumFramesPerSecond: 30])
                    .sinkWithReadyHandler { _ in
                    } receiveValue: { _, ready in
                        places.append(commandThread.isCurrent)
                        ready()
                    }
                try await waitUntil("a frame") { places.all.count >= 1 }
                // Between paced frames the thread sleeps on the pacing timer, and other transactions still get through.
                for _ in 0..<3 {
                    #expect(try await Self.liveViewIsOn(harness))
                }
                try await waitUntil("five frames") { places.all.count >= 5 }
                cancellable.cancel()
                #expect(places.all.allSatisfy { $0 }, "a frame came on another thread")
            }
        }

        @Test func optionsSkipDecodingOrFavourFrameRate() async throws {
            try await CameraHarness.run(Self.nikon) { harness in
                let camera = harness.camera
                let frames = Observed<LiveViewFrame>()
                let cancellable = camera.liveViewPublisher(options: [.skipImageDecoding: true])
                    .sinkWithReadyHandler { _ in
                    } receiveValue: { frame, ready in
                        frames.append(frame)
                        if frames.all.count == 1 {
                            camera.applyLiveViewOptions([.skipImageDecoding: false, .favorHighFrameRate: true])
                        }
                        if frames.all.count < 2 { ready() }
                    }
                try await waitUntil("two frames") { frames.all.count == 2 }
                #expect(frames.all[0].pixelBuffer == nil)
                #expect(frames.all[0].pixelSize == Dimensions(width: 640, height: 424))
                let half = try #require(frames.all[1].pixelBuffer)
                #expect(half.width == 320 && half.height == 212)
                #expect(frames.all[1].pixelSize == Dimensions(width: 640, height: 424))
                cancellable.cancel()
            }
        }

        @Test func nothingIsFetchedAndLiveViewStaysOffWithoutDemand() async throws {
            try await CameraHarness.run(Self.nikon) { harness in
                let publisher = harness.camera.liveViewPublisher
                let subscriber = IdleFrameSubscriber()
                publisher.subscribe(subscriber)
                // A subscriber without demand starts nothing that could fetch.
                #expect(publisher.statistics.isWaitingForDemand)
                #expect(publisher.statistics.framesFetched == 0)
                #expect(publisher.statistics.startCount == 0)
                #expect(try await !Self.liveViewIsOn(harness))

                subscriber.request(.max(2))
                try await waitUntil("two frames") { subscriber.received == 2 }
                try await waitUntil("live view to wait for demand") { publisher.statistics.isWaitingForDemand }
                #expect(publisher.statistics.framesFetched == 2)
                subscriber.cancel()
            }
        }

        @Test func aSlowConsumerMakesTheCameraFetchFewerFramesNotPileThemUp() async throws {
            // The camera makes 30 frames a second; the consumer takes 5.
            try await CameraHarness.run(Self.nikon) { harness in
                let publisher = harness.camera.liveViewPublisher
                let consumed = Atomic(0)
                let worst = Atomic(0)
                let consumer = DispatchQueue(label: "slow consumer")
                let cancellable = publisher.receive(on: consumer)
                    .sinkWithReadyHandler { _ in
                    } receiveValue: { frame, ready in
                        pause(milliseconds: 200)
                        let count = consumed.add(1, ordering: .relaxed).newValue
                        // Frames fetched but not yet consumed: never more than the one being handed over.
                        let backlog = publisher.statistics.framesFetched - count
                        if backlog > worst.load(ordering: .relaxed) { worst.store(backlog, ordering: .relaxed) }
                        if count < 21 { ready() }
                    }
                try await waitUntil("21 frames consumed") { consumed.load(ordering: .relaxed) == 21 }
                try await waitUntil("live view to wait for demand") { publisher.statistics.isWaitingForDemand }
                let fetched = publisher.statistics.framesFetched
                let ratio = Double(fetched) / 21
                #expect(ratio <= 1.05, "fetched \(fetched) frames for 21 consumed")
                #expect(worst.load(ordering: .relaxed) <= 0)
                cancellable.cancel()
            }
        }

        @Test func liveViewEndsAfterTheGracePeriodUnlessASubscriberReturns() async throws {
            var camera = PTPCamera.Configuration()
            camera.liveView.gracePeriod = .seconds(1)
            try await CameraHarness.run(Self.nikon, camera: camera) { harness in
                let publisher = harness.camera.liveViewPublisher
                let first = IdleFrameSubscriber()
                publisher.subscribe(first)
                first.request(.max(1))
                try await waitUntil("a frame") { first.received == 1 }
                first.cancel()
                let second = IdleFrameSubscriber()
                publisher.subscribe(second)
                second.request(.max(1))
                try await waitUntil("a frame for the rebuilt subscriber") { second.received == 1 }
                #expect(publisher.statistics.startCount == 1)
                #expect(try await Self.liveViewIsOn(harness))

                second.cancel()
                try await waitUntil("live view to end") { publisher.statistics.stopCount == 1 }
                #expect(try await !Self.liveViewIsOn(harness))
            }
        }

        @Test func aLiveViewThatIsSlowToBecomeReadyIsRetried() async throws {
            var simulator = Self.nikon
            simulator.liveViewStartupDelay = .milliseconds(900)
            var camera = PTPCamera.Configuration(liveViewReadyTimeout: .milliseconds(300))
            camera.liveView.retryDelay = .milliseconds(100)
            camera.liveView.startAttempts = 10
            try await CameraHarness.run(simulator, camera: camera) { harness in
                let publisher = harness.camera.liveViewPublisher
                let subscriber = IdleFrameSubscriber()
                publisher.subscribe(subscriber)
                subscriber.request(.max(1))
                try await waitUntil("a frame after retrying") { subscriber.received == 1 }
                #expect(publisher.statistics.failedStartCount >= 1)
                #expect(publisher.statistics.startCount == 1)
                subscriber.cancel()
            }
        }

        @Test func unlimitedDemandIsWarnedAboutOnce() async throws {
            let warnings = Observed<String>()
            var camera = PTPCamera.Configuration()
            camera.liveView.warningHandler = { warnings.append($0) }
            try await CameraHarness.run(Self.nikon, camera: camera) { harness in
                let received = Atomic(0)
                let first = harness.camera.liveViewPublisher.sink { _ in
                } receiveValue: { _ in
                    received.add(1, ordering: .relaxed)
                }
                let second = harness.camera.liveViewPublisher.sink { _ in
                } receiveValue: { _ in
                }
                try await waitUntil("frames") { received.load(ordering: .relaxed) >= 3 }
                #expect(warnings.all == [LiveViewPublisher.unlimitedDemandWarning])
                first.cancel()
                second.cancel()
            }
        }

        @Test func aCameraWithoutLiveViewFailsItsSubscribers() async throws {
            try await CameraHarness.run(.init(sampleImageCount: 0)) { harness in
                let completion = Observed<Subscribers.Completion<LiveViewTerminationReason>>()
                let cancellable = harness.camera.liveViewPublisher.sinkWithReadyHandler {
                    completion.append($0)
                } receiveValue: { _, ready in
                    ready()
                }
                try await waitUntil("the failure") { !completion.all.isEmpty }
                guard case .failure(.failed(let error)) = completion.all.first else {
                    Issue.record("expected a failure, got \(completion.all)")
                    return
                }
                #expect(error.code == .notAvailable)
                cancellable.cancel()
            }
        }

        @Test func disconnectingEndsLiveViewNormallyAndALostCameraFailsIt() async throws {
            try await CameraHarness.run(Self.nikon) { harness in
                let camera = harness.camera
                let completions = Observed<Subscribers.Completion<LiveViewTerminationReason>>()
                let frames = Atomic(0)
                var cancellable = camera.liveViewPublisher.sinkWithReadyHandler {
                    completions.append($0)
                } receiveValue: { _, ready in
                    frames.add(1, ordering: .relaxed)
                    ready()
                }
                try await waitUntil("frames") { frames.load(ordering: .relaxed) >= 2 }
                try await camera.disconnect()
                try await waitUntil("the end") { completions.all.count == 1 }
                #expect(completions.all == [.finished])
                cancellable.cancel()

                try await camera.connect()
                cancellable = camera.liveViewPublisher.sinkWithReadyHandler {
                    completions.append($0)
                } receiveValue: { _, ready in
                    frames.add(1, ordering: .relaxed)
                    ready()
                }
                let before = frames.load(ordering: .relaxed)
                try await waitUntil("frames again") { frames.load(ordering: .relaxed) >= before + 2 }
                await harness.simulator.stopOffThePool()
                try await waitUntil("the failure") { completions.all.count == 2 }
                guard case .failure(.failed(let error)) = completions.all.last else {
                    Issue.record("expected a failure, got \(completions.all)")
                    return
                }
                #expect(error.code == .disconnected)
                cancellable.cancel()
            }
        }

        @Test func recordingAndLiveViewShareTheCameraLiveView() async throws {
            try await CameraHarness.run(Self.nikon) { harness in
                let camera = harness.camera
                let frames = Atomic(0)
                let cancellable = camera.liveViewPublisher.sinkWithReadyHandler { _ in
                } receiveValue: { _, ready in
                    frames.add(1, ordering: .relaxed)
                    ready()
                }
                try await waitUntil("frames") { frames.load(ordering: .relaxed) >= 2 }
                try await camera.startVideoRecording()
                try await camera.stopVideoRecording()
                // Live view stays on for the subscriber after the recording.
                #expect(try await Self.liveViewIsOn(harness))
                let before = frames.load(ordering: .relaxed)
                try await waitUntil("frames after recording") { frames.load(ordering: .relaxed) >= before + 2 }
                cancellable.cancel()
            }
        }

        @Test func liveViewFeedsACaptureContext() async throws {
            try await CameraHarness.run(Self.nikon) { harness in
                let source = LiveViewFrameSource(camera: harness.camera)
                let context = DataCaptureContext()
                let sizes = Observed<String>()
                _ = context.addProcessor { frame in
                    sizes.append("\(frame.pixelBuffer.width)x\(frame.pixelBuffer.height) \(frame.pixelBuffer.format)")
                }
                await context.setFrameSource(source)
                #expect(await source.switch(toDesiredState: .on))
                try await waitUntil("frames in the context") { sizes.all.count >= 3 }
                #expect(sizes.all.allSatisfy { $0 == "640x424 \(PixelFormat.nv12FullRange)" })
                #expect(await source.switch(toDesiredState: .off))
            }
        }
    }
}
