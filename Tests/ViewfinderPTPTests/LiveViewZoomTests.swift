import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// Live view magnified, against the simulated cameras over loopback TCP: Canon's Zoom and Nikon's
    /// LiveViewImageZoomRatio magnify the simulated live view, whose frames then show the middle of the test scene,
    /// and Canon's ZoomPosition moves the magnified part; a level the camera does not offer and a camera without zoom
    /// fail before anything is sent.
    @Suite(.timeLimit(.minutes(3))) struct LiveViewZoomTests {
        static let canon = CameraSimulator.Configuration(identity: .canon, sampleImageCount: 0)

        /// How many frames came and the newest one's JPEG image, from a subscriber that always asks for the next.
        final class Frames: Sendable {
            let received = Locked<(count: Int, newest: [UInt8])>((0, []))
            var count: Int { received.withLock { $0.count } }

            /// The frames of `camera`'s live view, undecoded, until the subscription is cancelled.
            static func following(_ camera: PTPCamera) -> (Frames, AnyCancellable) {
                camera.applyLiveViewOptions([.skipImageDecoding: true])
                let frames = Frames()
                let cancellable = camera.liveViewPublisher.sinkWithReadyHandler { _ in
                } receiveValue: { frame, ready in
                    frames.received.withLock { $0 = ($0.count + 1, frame.jpegData) }
                    ready()
                }
                return (frames, cancellable)
            }

            /// The mean luma of the bottom tenth of the newest frame, once more than `count` frames came.
            func bottomLuma(after count: Int) async throws -> Double {
                try await waitUntil("a live view frame after frame \(count)") { self.count > count }
                let image = received.withLock { $0.newest }
                return try #require(JPEGProbe.measure(image, rows: 0.9..<1)).meanLuma
            }

            /// The mean luma of the bottom tenth of a frame the camera made after a request that just returned: the
            /// frame fetched while the request was under way is passed over.
            func bottomLumaOfAFrameAfterNow() async throws -> Double {
                try await bottomLuma(after: count + 1)
            }
        }

        static func setZoomWithCompletion(_ camera: PTPCamera, _ level: LiveViewZoomLevel) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                camera.setLiveViewZoomLevel(level) { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        }

        @Test func canonZoomMagnifiesTheMiddleOfTheLiveView() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let camera = harness.camera
                #expect(camera.supportedFunctionality.contains(.liveViewZoom))
                let (frames, cancellable) = Frames.following(camera)
                defer { cancellable.cancel() }
                // The whole scene ends in a wedge of grey steps from light to nearly black.
                let whole = try await frames.bottomLuma(after: 0)
                #expect(whole < 120, "mean luma \(whole)")

                // Five times around the middle: the bottom rows cross the grey ramp's middle fifth.
                try await camera.setLiveViewZoomLevel(LiveViewZoomLevel(zoomFactor: 5))
                #expect(harness.simulator.requestsAnswered(.canonEOSZoom) == 1)
                let magnified = try await frames.bottomLumaOfAFrameAfterNow()
                #expect(magnified > 150, "mean luma \(magnified)")

                try await Self.setZoomWithCompletion(camera, .none)
                let back = try await frames.bottomLumaOfAFrameAfterNow()
                #expect(back < 120, "mean luma \(back)")
                #expect(harness.simulator.requestsAnswered(.canonEOSZoom) == 2)
            }
        }

        @Test func canonRefusesALevelItDoesNotOfferBeforeSendingIt() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let refused = await #expect(throws: ViewfinderError.self) {
                    try await harness.camera.setLiveViewZoomLevel(LiveViewZoomLevel(zoomFactor: 3))
                }
                #expect(refused?.code == .invalidArgument)
                #expect(refused?.message.contains("1, 5 or 10") == true, "\(String(describing: refused))")
                #expect(harness.simulator.requestsAnswered(.canonEOSZoom) == 0)
            }
        }

        @Test func theZoomLevelIsKnownOnceSetAndForgottenWithTheConnection() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let camera = harness.camera
                #expect(camera.liveViewZoomLevel == nil)
                let seen = Observed<LiveViewZoomLevel?>()
                let token = camera.addLiveViewZoomLevelObserver { seen.append($0) }
                let published = Observed<LiveViewZoomLevel?>()
                let cancellable = camera.liveViewZoomLevelPublisher().sink { published.append($0) }

                try await camera.setLiveViewZoomLevel(LiveViewZoomLevel(zoomFactor: 10))
                #expect(camera.liveViewZoomLevel == LiveViewZoomLevel(zoomFactor: 10))
                #expect(camera.liveViewZoomLevel?.isZoomedIn == true)
                try await Self.setZoomWithCompletion(camera, .none)
                #expect(camera.liveViewZoomLevel?.isZoomedIn == false)
                // The same level again changes nothing.
                try await camera.setLiveViewZoomLevel(.none)
                #expect(seen.all == [LiveViewZoomLevel(zoomFactor: 10), LiveViewZoomLevel.none])
                #expect(published.all == [nil, LiveViewZoomLevel(zoomFactor: 10), LiveViewZoomLevel.none])

                try await camera.disconnect()
                #expect(camera.liveViewZoomLevel == nil)
                #expect(seen.all == [LiveViewZoomLevel(zoomFactor: 10), LiveViewZoomLevel.none, nil])
                withExtendedLifetime(token) {}
                cancellable.cancel()
            }
        }

        @Test func canonZoomCenterMovesTheMagnifiedPart() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let camera = harness.camera
                #expect(camera.supportedFunctionality.contains(.pannableLiveView))
                #expect(camera.liveViewZoomLevels.map(\.zoomFactor) == [1, 5, 10])
                try await camera.setLiveViewZoomLevel(LiveViewZoomLevel(zoomFactor: 5))
                try await camera.setLiveViewZoomCenter(LiveViewPoint(x: 100, y: 60))
                #expect(harness.simulator.liveViewZoomCenter.map { [$0.x, $0.y] } == [100, 60])
                #expect(harness.simulator.requestsAnswered(.canonEOSZoomPosition) == 1)

                let negative = await #expect(throws: ViewfinderError.self) {
                    try await camera.setLiveViewZoomCenter(LiveViewPoint(x: -1, y: 60))
                }
                #expect(negative?.code == .invalidArgument)
                #expect(harness.simulator.requestsAnswered(.canonEOSZoomPosition) == 1)

                // The simulated picture is 640 by 424: a point beyond it is refused by the camera.
                let outside = await #expect(throws: ViewfinderError.self) {
                    try await camera.setLiveViewZoomCenter(LiveViewPoint(x: 100, y: 5000))
                }
                #expect(outside?.code == .notAvailable)
                #expect(outside?.message.contains("ZoomPosition") == true, "\(String(describing: outside))")
                #expect(harness.simulator.liveViewZoomCenter.map { [$0.x, $0.y] } == [100, 60])
            }
        }

        @Test func nikonZoomRatioMagnifiesByTheLevelsNikonNames() async throws {
            let nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)
            try await CameraHarness.run(nikon) { harness in
                let camera = harness.camera
                #expect(camera.supportedFunctionality.contains(.liveViewZoom))
                #expect(!camera.supportedFunctionality.contains(.pannableLiveView))
                #expect(camera.liveViewZoomLevels.map(\.description) == ["1x", "25%", "50%", "100%", "200%"])
                // Read as the connection opens: the whole picture.
                #expect(camera.liveViewZoomLevel == LiveViewZoomLevel.none)
                let (frames, cancellable) = Frames.following(camera)
                defer { cancellable.cancel() }
                let whole = try await frames.bottomLuma(after: 0)
                #expect(whole < 120, "mean luma \(whole)")

                let hundred = LiveViewZoomLevel(zoomFactor: 0, name: "100%")
                try await camera.setLiveViewZoomLevel(hundred)
                #expect(harness.simulator.dialValue(.nikonLiveViewImageZoomRatio) == 6)
                #expect(camera.liveViewZoomLevel == hundred && camera.liveViewZoomLevel?.isZoomedIn == true)
                let magnified = try await frames.bottomLumaOfAFrameAfterNow()
                #expect(magnified > 150, "mean luma \(magnified)")

                let refused = await #expect(throws: ViewfinderError.self) {
                    try await camera.setLiveViewZoomLevel(LiveViewZoomLevel(zoomFactor: 5))
                }
                #expect(refused?.code == .invalidArgument)
                #expect(refused?.message.contains("25%, 50%, 100% or 200%") == true, "\(String(describing: refused))")
                #expect(harness.simulator.dialValue(.nikonLiveViewImageZoomRatio) == 6)

                // A level chosen on the camera reaches the client through the camera's event.
                try harness.simulator.turnDial(.nikonLiveViewImageZoomRatio, to: 2)
                try await waitUntil("the camera's 25%") { camera.liveViewZoomLevel?.name == "25%" }
                try await camera.setLiveViewZoomLevel(.none)
                #expect(harness.simulator.dialValue(.nikonLiveViewImageZoomRatio) == 0)
                #expect(camera.liveViewZoomLevel?.isZoomedIn == false)
            }
        }

        @Test func nikonLevelsFollowTheModel() throws {
            #expect(NikonLiveViewZoom.levels(ofModel: "D5000")[3]?.name == "50%")
            #expect(NikonLiveViewZoom.levels(ofModel: "Z 6")[3] == nil)
            #expect(NikonLiveViewZoom.levels(ofModel: "Z 6")[7]?.name == "200%")
            #expect(try NikonLiveViewZoom.value(of: LiveViewZoomLevel(zoomFactor: 0, name: "66%"), model: "D5000") == 4)
            #expect(try NikonLiveViewZoom.value(of: .none, model: "Z 6") == 0)
            #expect(throws: ViewfinderError.self) {
                try NikonLiveViewZoom.value(of: LiveViewZoomLevel(zoomFactor: 0, name: "66%"), model: "Z 6")
            }
        }

        @Test func aCameraWithoutZoomSaysSo() async throws {
            let generic = CameraSimulator.Configuration(identity: .generic, sampleImageCount: 0)
            try await CameraHarness.run(generic) { harness in
                let camera = harness.camera
                #expect(!camera.supportedFunctionality.contains(.liveViewZoom))
                let refused = await #expect(throws: ViewfinderError.self) {
                    try await camera.setLiveViewZoomLevel(LiveViewZoomLevel(zoomFactor: 5))
                }
                #expect(refused?.code == .notAvailable)
                #expect(refused?.message.contains("zoom the live view") == true, "\(String(describing: refused))")
                #expect(!camera.supportedFunctionality.contains(.pannableLiveView))
                let notPanned = await #expect(throws: ViewfinderError.self) {
                    try await camera.setLiveViewZoomCenter(LiveViewPoint(x: 1, y: 1))
                }
                #expect(notPanned?.code == .notAvailable)
                #expect(camera.liveViewZoomLevel == nil)
                #expect(camera.liveViewZoomLevels.isEmpty)
            }
        }
    }
}
