import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// Focus information and touch AF against the simulated cameras over loopback TCP: the simulated Nikon's
    /// autofocus area comes with each live view header and ChangeAfArea moves it, the simulated Canon reports nine
    /// points in FocusInfoEx, and a camera without them says `notAvailable`.
    @Suite(.timeLimit(.minutes(3))) struct FocusInfoTests {
        static let nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)
        static let canon = CameraSimulator.Configuration(identity: .canon, sampleImageCount: 0)
        static let generic = CameraSimulator.Configuration(identity: .generic, sampleImageCount: 0)
        /// The simulated Nikon's area: a tenth of its 6000x4000 picture each way.
        static func nikonArea(around center: LiveViewPoint) -> LiveViewRect {
            LiveViewRect(x: center.x - 300, y: center.y - 200, width: 600, height: 400)
        }

        /// Runs `body` with live view frames flowing: each frame is taken and the next asked for, the last one's
        /// geometry kept.
        static func withFlowingLiveView(
            _ camera: PTPCamera, _ body: (_ lastGeometry: @Sendable () -> LiveViewGeometry?) async throws -> Void
        ) async throws {
            let last = Locked<LiveViewGeometry?>(nil)
            let cancellable = camera.liveViewPublisher.sinkWithReadyHandler { _ in
            } receiveValue: { frame, ready in
                last.withLock { $0 = frame.geometry }
                ready()
            }
            defer { cancellable.cancel() }
            try await waitUntil("a live view frame") { last.withLock { $0 } != nil }
            try await body { last.withLock { $0 } }
        }

        @Test func nikonTouchAutoFocusMovesTheAreaThatTheLiveViewHeaderReports() async throws {
            try await CameraHarness.run(Self.nikon) { harness in
                let camera = harness.camera
                #expect(camera.supportedFunctionality.isSuperset(of: [.focusInfo, .touchAutoFocus]))
                let middle = LiveViewPoint(x: 3000, y: 2000)
                #expect(harness.simulator.afAreaCenter == middle)
                let seen = Locked<[FocusInfo?]>([])
                let token = camera.addFocusInfoObserver { info in seen.withLock { $0.append(info) } }
                let published = Locked<[FocusInfo?]>([])
                let cancellable = camera.focusInfoPublisher().sink { info in published.withLock { $0.append(info) } }

                // ChangeAfArea outside live view: NotLiveView, said as such, and the area stays.
                let refused = await #expect(throws: ViewfinderError.self) {
                    try await camera.touchAutoFocus(at: LiveViewPoint(x: 1500, y: 1000))
                }
                #expect(refused?.code == .notAvailable)
                #expect(refused?.message.contains("live view") == true, "\(String(describing: refused))")
                #expect(harness.simulator.afAreaCenter == middle)
                #expect(camera.focusInfo == nil)

                let corner = LiveViewPoint(x: 4500, y: 3000)
                try await Self.withFlowingLiveView(camera) { lastGeometry in
                    let first = try #require(lastGeometry())
                    #expect(first.afAreas == [FocusPoint(rect: Self.nikonArea(around: middle), isActive: true)])
                    let info = try #require(camera.focusInfo)
                    #expect(info.aspect == Dimensions(width: 6000, height: 4000))
                    #expect(info.points == first.afAreas)

                    let target = LiveViewPoint(x: 1500, y: 1000)
                    try await camera.touchAutoFocus(at: target)
                    #expect(harness.simulator.afAreaCenter == target)
                    // The frames that follow show the area where it moved, in focus after AfDrive.
                    let moved = FocusPoint(rect: Self.nikonArea(around: target), isActive: true, hasFocus: true)
                    try await waitUntil("the focus info to show the moved area") {
                        camera.focusInfo?.points == [moved]
                    }
                    try await waitUntil("a frame's geometry to show the moved area") {
                        lastGeometry()?.afAreas == [moved]
                    }

                    // The completion-handler form.
                    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                        camera.touchAutoFocus(at: corner) { error in
                            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                        }
                    }
                    #expect(harness.simulator.afAreaCenter == corner)

                    // A point outside the picture is refused before anything is sent.
                    let outside = await #expect(throws: ViewfinderError.self) {
                        try await camera.touchAutoFocus(at: LiveViewPoint(x: 7000, y: 100))
                    }
                    #expect(outside?.code == .invalidArgument)
                    #expect(outside?.message.contains("6000x4000") == true, "\(String(describing: outside))")
                    #expect(harness.simulator.afAreaCenter == corner)
                }
                try await waitUntil("the observers to hear of the moves") {
                    seen.withLock { $0 }.contains { $0?.points.first?.rect == Self.nikonArea(around: corner) }
                }
                #expect(published.withLock { $0 }.first == .some(nil))
                #expect(published.withLock { $0 }.contains { $0?.points.first?.hasFocus == true })

                try await camera.disconnect()
                #expect(camera.focusInfo == nil)
                try await waitUntil("the observers to hear the focus info forgotten") {
                    seen.withLock { $0 }.last == .some(nil)
                }
                withExtendedLifetime(token) {}
                cancellable.cancel()
            }
        }

        @Test func canonReportsItsNinePointsInFocusInfoEx() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let camera = harness.camera
                try await waitUntil("the Canon's FocusInfoEx") { camera.focusInfo != nil }
                #expect(camera.supportedFunctionality.contains(.focusInfo))
                #expect(!camera.supportedFunctionality.contains(.touchAutoFocus))
                let info = try #require(camera.focusInfo)
                #expect(info.aspect == Dimensions(width: 6000, height: 4000))
                #expect(info.points.count == 9)
                #expect(
                    info.activePoints == [
                        FocusPoint(rect: LiveViewRect(x: 2850, y: 1850, width: 300, height: 300), isActive: true)
                    ])
                #expect(info.points[0].rect == LiveViewRect(x: 1350, y: 850, width: 300, height: 300))
                // EOS touch AF is not offered: TouchAfPosition has no documented use to follow.
                let refused = await #expect(throws: ViewfinderError.self) {
                    try await camera.touchAutoFocus(at: LiveViewPoint(x: 100, y: 100))
                }
                #expect(refused?.code == .notAvailable)
            }
        }

        @Test func aCameraWithoutThemSaysNotAvailable() async throws {
            try await CameraHarness.run(Self.generic) { harness in
                let camera = harness.camera
                #expect(!camera.supportedFunctionality.contains(.focusInfo))
                #expect(!camera.supportedFunctionality.contains(.touchAutoFocus))
                #expect(camera.focusInfo == nil)
                let refused = await #expect(throws: ViewfinderError.self) {
                    try await camera.touchAutoFocus(at: LiveViewPoint(x: 10, y: 10))
                }
                #expect(refused?.code == .notAvailable)
            }
        }
    }
}

/// Canon's FocusInfoEx record: the points it holds and selects, and records whose counts and lengths lie, which give
/// `malformedData` without reading past the bytes that came.
@Suite struct CanonEOSFocusInfoTests {
    static let aspect = Dimensions(width: 6000, height: 4000)
    static let points = [
        FocusPoint(rect: LiveViewRect(x: 1000, y: 900, width: 200, height: 100), isActive: false),
        FocusPoint(rect: LiveViewRect(x: 2900, y: 1950, width: 200, height: 100), isActive: true),
        FocusPoint(rect: LiveViewRect(x: 4800, y: 3000, width: 200, height: 100), isActive: true),
    ]

    /// `record` with its 16-bit field at `offset` set to `value`.
    static func with(_ record: [UInt8], _ value: UInt16, at offset: Int) -> [UInt8] {
        var record = record
        record[offset] = UInt8(truncatingIfNeeded: value)
        record[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
        return record
    }

    @Test func aRecordGivesItsPointsAndWhichAreSelected() throws {
        let record = CanonEOSFocusInfo.encode(aspect: Self.aspect, points: Self.points)
        let info = try #require(try CanonEOSFocusInfo.decode(record))
        #expect(info.aspect == Self.aspect)
        #expect(info.points == Self.points)
        #expect(info.activePoints.count == 2)
    }

    @Test func aZeroFilledPlaceholderHasNoPoints() throws {
        #expect(try CanonEOSFocusInfo.decode([20, 0, 0, 0] + [UInt8](repeating: 0, count: 16)) == nil)
    }

    @Test func countsAndLengthsThatLieAreMalformed() {
        let record = CanonEOSFocusInfo.encode(aspect: Self.aspect, points: Self.points)
        let hostile: [(String, [UInt8])] = [
            ("shorter than its header", Array(record.prefix(12))),
            ("a size beyond the bytes", [0xFF, 0xFF, 0xFF, 0x7F] + record.dropFirst(4)),
            ("a size below the header", [4, 0, 0, 0] + record.dropFirst(4)),
            ("65535 points in a short record", Self.with(Self.with(record, 0xFFFF, at: 8), 3, at: 10)),
            ("more points in use than held", Self.with(record, 4, at: 10)),
            ("a coordinate space of no size", Self.with(record, 0, at: 12)),
        ]
        for (what, bytes) in hostile {
            #expect(throws: ViewfinderError.self, "\(what)") { try CanonEOSFocusInfo.decode(bytes) }
            do {
                _ = try CanonEOSFocusInfo.decode(bytes)
            } catch {
                #expect(error.code == .malformedData, "\(what)")
                #expect(error.message.contains("FocusInfoEx"), "\(what)")
            }
        }
    }

    @Test func everyTruncationAndCorruptionEndsInPointsOrAnError() {
        let record = CanonEOSFocusInfo.encode(aspect: Self.aspect, points: Self.points)
        for length in 0...record.count {
            var bytes = Array(record.prefix(length))
            if bytes.count >= 4 {
                // The size claims what came, so the arrays are what is checked.
                bytes.replaceSubrange(0..<4, with: withUnsafeBytes(of: UInt32(bytes.count).littleEndian, Array.init))
            }
            let info = try? CanonEOSFocusInfo.decode(bytes)
            #expect((info?.points.count ?? 0) <= Self.points.count)
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var bytes = record
            bytes[Int.random(in: 4..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            // Each point takes eight bytes of the record: no more are read than came.
            let info = try? CanonEOSFocusInfo.decode(bytes)
            #expect((info?.points.count ?? 0) <= (bytes.count - CanonEOSFocusInfo.headerLength) / 8)
        }
    }
}

/// The autofocus area in Nikon's live view header.
@Suite struct NikonLiveViewHeaderAFAreaTests {
    static let image = Dimensions(width: 640, height: 424)
    static let whole = Dimensions(width: 6000, height: 4000)

    @Test func theHeaderGivesTheAreaAroundItsCentre() throws {
        let area = LiveViewRect(x: 1200, y: 800, width: 600, height: 400)
        let header = PTPNikonLiveViewHeader.encode(imageSize: Self.image, whole: Self.whole, afArea: area)
        let geometry = try #require(PTPNikonLiveViewHeader.geometry(header: header[...], imageSize: Self.image))
        #expect(geometry.afAreas == [FocusPoint(rect: area, isActive: true)])
    }

    @Test func anAreaOfNoSizeOrLargerThanThePictureIsNone() throws {
        let none = PTPNikonLiveViewHeader.encode(imageSize: Self.image, whole: Self.whole)
        #expect(try #require(PTPNikonLiveViewHeader.geometry(header: none[...], imageSize: Self.image)).afAreas == [])
        let huge = PTPNikonLiveViewHeader.encode(
            imageSize: Self.image, whole: Self.whole, afArea: LiveViewRect(x: 0, y: 0, width: 9000, height: 400))
        #expect(try #require(PTPNikonLiveViewHeader.geometry(header: huge[...], imageSize: Self.image)).afAreas == [])
    }
}
