import Testing
import ViewfinderCore
import ViewfinderSimulator

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// Nikon live view and movie recording on the simulator through the client.
@Suite struct SimulatorLiveViewTests {
    static let nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)

    @Test func liveViewNeedsStarting() async throws {
        try await SimulatorHarness.run(Self.nikon) { harness in
            let session = harness.session
            #expect(await responseCode { _ = try await session.nikonLiveViewFrame() } == .nikonNotLiveView)
            let status = try await session.propertyValue(.nikonLiveViewStatus, of: .uint8)
            #expect(status == .uint8(0))
        }
    }

    @Test func theCameraIsBusyWhileLiveViewStarts() async throws {
        var configuration = Self.nikon
        configuration.liveViewStartupDelay = .seconds(600)
        try await SimulatorHarness.run(configuration) { harness in
            let session = harness.session
            _ = try await session.transaction(.nikonStartLiveView)
            #expect(await responseCode { _ = try await session.transaction(.nikonDeviceReady) } == .deviceBusy)
            #expect(await responseCode { _ = try await session.nikonLiveViewFrame() } == .deviceBusy)
            let error = await #expect(throws: ViewfinderError.self) {
                try await session.waitUntilNikonReady(timeout: .milliseconds(50))
            }
            #expect(error?.code == .timeout)
        }
    }

    @Test func liveViewDeliversMovingFrames() async throws {
        var configuration = Self.nikon
        configuration.liveViewStartupDelay = .milliseconds(100)
        try await SimulatorHarness.run(configuration) { harness in
            let session = harness.session
            try await session.startNikonLiveView()
            _ = try await harness.events.next(.devicePropChanged, parameter: 0xD1A2)
            #expect(try await session.propertyValue(.nikonLiveViewStatus, of: .uint8) == .uint8(1))

            let first = try await session.nikonLiveViewFrame()
            #expect(first.header.count == 384)
            let measured = try #require(JPEGProbe.measure(first.jpeg))
            #expect(measured.width == 640)
            #expect(measured.height == 424)
            try await Task.sleep(for: .milliseconds(150))
            let later = try await session.nikonLiveViewFrame()
            #expect(later.jpeg != first.jpeg)
            #expect(JPEGProbe.measure(later.jpeg) != nil)

            try await session.endNikonLiveView()
            _ = try await harness.events.next(.devicePropChanged, parameter: 0xD1A2)
            #expect(await responseCode { _ = try await session.nikonLiveViewFrame() } == .nikonNotLiveView)
        }
    }

    @Test func movieRecordingIsObservable() async throws {
        try await SimulatorHarness.run(Self.nikon) { harness in
            let session = harness.session
            #expect(await responseCode { try await session.startNikonMovieRecording() } == .nikonNotLiveView)
            try await session.startNikonLiveView()
            try await session.startNikonMovieRecording()
            _ = try await harness.events.next(.devicePropChanged, parameter: 0xD0A4)
            let recording = try await session.propertyValue(.nikonMovieRecordingProhibitCondition, of: .uint32)
            #expect(recording == .uint32(1 << 10))
            #expect(await responseCode { try await session.startNikonMovieRecording() } == .nikonInvalidStatus)

            try await session.endNikonMovieRecording()
            _ = try await harness.events.next(.nikonMovieRecordComplete)
            let idle = try await session.propertyValue(.nikonMovieRecordingProhibitCondition, of: .uint32)
            #expect(idle == .uint32(0))
            #expect(await responseCode { try await session.endNikonMovieRecording() } == .nikonInvalidStatus)
        }
    }

    @Test func framesFindTheJPEGBehindAnyHeader() throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9]
        let frame = try PTPNikonLiveViewFrame(data: [0, 0xFF, 7, 0] + jpeg + [0, 0])
        #expect(Array(frame.jpeg) == jpeg)
        #expect(frame.header.count == 4)
        #expect(malformed { try PTPNikonLiveViewFrame(data: [1, 2, 3, 0xFF, 0xD9]) })
    }
}
