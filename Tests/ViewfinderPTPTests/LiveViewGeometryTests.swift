import Testing
import ViewfinderCore
import ViewfinderImaging
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

/// The geometry of Nikon's live view header: the whole picture as the aspect, the area shown when magnified, the
/// rotation, in both layouts; headers that do not describe their JPEG give none.
@Suite struct NikonLiveViewHeaderTests {
    static let image = Dimensions(width: 640, height: 424)
    static let whole = Dimensions(width: 6000, height: 4000)

    @Test func theOlderLayoutGivesTheWholePictureTheAreaShownAndTheRotation() throws {
        let shown = LiveViewRect(x: 2400, y: 1600, width: 1200, height: 800)
        let header = PTPNikonLiveViewHeader.encode(
            imageSize: Self.image, whole: Self.whole, shown: shown, rotation: 1)
        let geometry = try #require(PTPNikonLiveViewHeader.geometry(header: header[...], imageSize: Self.image))
        #expect(geometry.aspect == Self.whole)
        #expect(geometry.imageFrame == LiveViewRect(x: 0, y: 0, width: 6000, height: 4000))
        #expect(geometry.zoomRect == shown)
        #expect(geometry.isZoomedIn)
        #expect(geometry.orientation == .portraitRight)
    }

    @Test func theNewerLayoutHasEveryFieldEightBytesLater() throws {
        let older = PTPNikonLiveViewHeader.encode(imageSize: Self.image, whole: Self.whole, rotation: 3)
        let header = [UInt8](repeating: 7, count: 8) + older
        let geometry = try #require(PTPNikonLiveViewHeader.geometry(header: header[...], imageSize: Self.image))
        #expect(geometry.aspect == Self.whole)
        #expect(geometry.zoomRect == nil)
        #expect(!geometry.isZoomedIn)
        #expect(geometry.orientation == .upsideDown)
    }

    @Test func aHeaderThatDoesNotDescribeItsImageGivesNoGeometry() {
        let header = PTPNikonLiveViewHeader.encode(imageSize: Self.image, whole: Self.whole)
        // Another image size, a header cut short, no whole picture.
        let other = Dimensions(width: 320, height: 212)
        #expect(PTPNikonLiveViewHeader.geometry(header: header[...], imageSize: other) == nil)
        #expect(PTPNikonLiveViewHeader.geometry(header: header[..<20], imageSize: Self.image) == nil)
        let empty = PTPNikonLiveViewHeader.encode(imageSize: Self.image, whole: Dimensions(width: 0, height: 0))
        #expect(PTPNikonLiveViewHeader.geometry(header: empty[...], imageSize: Self.image) == nil)
        // An area shown larger than the picture is no zoom; an unknown rotation is no orientation.
        let wide = PTPNikonLiveViewHeader.encode(
            imageSize: Self.image, whole: Self.whole, shown: LiveViewRect(x: 0, y: 0, width: 9000, height: 4000),
            rotation: 9)
        let geometry = PTPNikonLiveViewHeader.geometry(header: wide[...], imageSize: Self.image)
        #expect(geometry?.zoomRect == nil)
        #expect(geometry != nil && geometry?.orientation == nil)
    }

    @Test func theJPEGSizeComesFromItsStartOfFrame() throws {
        let picture = try PixelBuffer(width: 48, height: 32, format: .nv12FullRange) { _ in }
        let jpeg = try JPEGEncoder().encode(picture)
        #expect(PTPNikonLiveViewHeader.jpegSize(jpeg[...]) == Dimensions(width: 48, height: 32))
        // Cut before its start of frame, or a segment length that runs past the end.
        #expect(PTPNikonLiveViewHeader.jpegSize(jpeg[..<6]) == nil)
        #expect(PTPNikonLiveViewHeader.jpegSize([0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF, 0, 0, 0, 0, 0][...]) == nil)
    }
}

extension SimulatedCameraTests {
    /// Live view frames' geometry from the simulated cameras: the simulated Nikon's header names its whole picture,
    /// the simulated Canon says nothing beyond its image.
    @Suite(.timeLimit(.minutes(3))) struct LiveViewGeometryTests {
        /// The first live view frame of `camera`.
        static func firstFrame(of camera: PTPCamera) async throws -> LiveViewFrame {
            camera.applyLiveViewOptions([.skipImageDecoding: true])
            let frame = Locked<LiveViewFrame?>(nil)
            let cancellable = camera.liveViewPublisher.sinkWithReadyHandler { _ in
            } receiveValue: { received, _ in
                frame.withLock { $0 = $0 ?? received }
            }
            defer { cancellable.cancel() }
            try await waitUntil("a live view frame") { frame.withLock { $0 != nil } }
            return try #require(frame.withLock { $0 })
        }

        @Test func nikonFramesCarryTheWholePictureFromTheirHeader() async throws {
            let nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)
            try await CameraHarness.run(nikon) { harness in
                let frame = try await Self.firstFrame(of: harness.camera)
                #expect(frame.pixelSize == Dimensions(width: 640, height: 424))
                #expect(frame.geometry.aspect == Dimensions(width: 6000, height: 4000))
                #expect(frame.geometry.imageFrame == LiveViewRect(x: 0, y: 0, width: 6000, height: 4000))
                #expect(frame.geometry.zoomRect == nil)
                #expect(frame.geometry.orientation == .landscape)
            }
        }

        @Test func canonFramesAreTheirOwnAspect() async throws {
            let canon = CameraSimulator.Configuration(identity: .canon, sampleImageCount: 0)
            try await CameraHarness.run(canon) { harness in
                let frame = try await Self.firstFrame(of: harness.camera)
                #expect(frame.geometry == LiveViewGeometry(imageSize: frame.pixelSize))
                #expect(frame.geometry.orientation == nil)
            }
        }
    }
}
