import Testing
import ViewfinderCore
import ViewfinderHTTPClient
import ViewfinderHTTPMessage
import ViewfinderSimulator
import ViewfinderSonyRemote
import ViewfinderSystem
import ViewfinderTestSupport

/// The Sony Camera Remote API driver against the simulated α6000 on loopback.
@Suite struct SonyRemoteCameraTests {
    /// The deadline of a call unless a test says otherwise: one that only a hang reaches, as a busy machine
    /// running the tests under the thread sanitizer may take seconds to answer on loopback.
    static let deadline = Duration.seconds(30)

    /// A camera whose description is on loopback at `port`.
    static func camera(
        port: UInt16, requestTimeout: Duration = deadline, longPollTimeout: Duration = deadline,
        maximumAnswerLength: Int = 1 << 20, maximumContentCount: Int = 10_000
    ) -> SonyRemoteCamera {
        var configuration = SonyRemoteCamera.Configuration()
        configuration.port = port
        configuration.requestTimeout = requestTimeout
        configuration.longPollTimeout = longPollTimeout
        configuration.recModeTimeout = deadline
        configuration.maximumAnswerLength = maximumAnswerLength
        configuration.maximumContentCount = maximumContentCount
        return SonyRemoteCamera(host: "127.0.0.1", configuration: configuration)
    }

    /// Starts a simulated α6000 on loopback whose long polls wait at most `eventTimeout`, without the calls
    /// `omittedMethods`, with `picturesOnCard` stills on its card, giving `contentCount` as their count where set and
    /// `contentPageExcess` entries more than asked for in a page, runs `body` with a camera for it (not yet connected,
    /// listing at most `maximumContentCount` stills), the simulator and its log, and stops it.
    static func withSimulator(
        eventTimeout: Duration = .seconds(1), longPollTimeout: Duration = deadline,
        omitting omittedMethods: Set<String> = [], picturesOnCard: Int = 3, contentCount: Int? = nil,
        contentPageExcess: Int = 0, maximumContentCount: Int = 10_000, longPollAnswerDelay: Duration = .zero,
        _ body: (SonyRemoteCamera, SonyRemoteSimulator, Locked<[String]>) async throws -> Void
    ) async throws {
        let log = Locked<[String]>([])
        var configuration = SonyRemoteSimulator.Configuration(
            port: 0, eventTimeout: eventTimeout, log: { line in log.withLock { $0.append(line) } })
        configuration.omittedMethods = omittedMethods
        configuration.picturesOnCard = picturesOnCard
        configuration.contentCount = contentCount
        configuration.contentPageExcess = contentPageExcess
        configuration.longPollAnswerDelay = longPollAnswerDelay
        let simulator = SonyRemoteSimulator(configuration: configuration)
        let port = try simulator.start()
        do {
            try await body(
                camera(port: port, longPollTimeout: longPollTimeout, maximumContentCount: maximumContentCount),
                simulator, log)
        } catch {
            await offThePool { simulator.stop() }
            throw error
        }
        await offThePool { simulator.stop() }
    }

    /// Calls `method` of the simulator's camera service at `port`, as another client would, and returns the answer.
    static func call(_ method: String, _ params: [JSONValue], port: UInt16) async throws -> [UInt8] {
        let thread = try IOThread(name: "test-sony-client")
        defer { thread.stop() }
        let body = SonyRemoteCall.body(method, params, id: 1)
        let request = HTTPHead(
            startLine: "POST /sony/camera HTTP/1.1",
            fields: [.init("Host", "127.0.0.1:\(port)"), .init("Content-Length", "\(body.count)")])
        return try await HTTPClient.run(on: thread, peer: "the simulator") { () throws(ViewfinderError) -> [UInt8] in
            try HTTPClient.exchange(
                request, body: body, host: "127.0.0.1", port: port, deadline: .now + deadline,
                maximumBodyLength: 1 << 20, activity: "calling \(method)"
            ).body
        }
    }

    @Test func connectingStartsRecModeAndReadsTheTypedProperties() async throws {
        try await Self.withSimulator { camera, _, log in
            try await camera.connect()
            #expect(camera.deviceInfo?.model == "ILCE-6000")
            #expect(camera.deviceInfo?.manufacturer == "Sony")
            #expect(log.withLock { $0 }.contains("startRecMode"))
            #expect(camera.property(for: .iso).commonValue == .automatic)
            #expect(camera.property(for: .aperture).commonValue == ApertureValue(fNumber: 5.6))
            #expect(camera.property(for: .shutterSpeed).commonValue == ShutterSpeedValue(seconds: 1.0 / 250))
            #expect(camera.property(for: .exposureCompensation).commonValue == .zero)
            #expect(camera.property(for: .whiteBalance).commonValue == .automatic)
            let speeds = camera.property(for: .shutterSpeed).validSettableValues
            #expect(speeds.first(matchingCommonValue: ShutterSpeedValue(seconds: 30)!)?.rawValue == .string("30\""))
            #expect(speeds.first(matchingCommonValue: ShutterSpeedValue(seconds: 1.0 / 4000)!) != nil)
            #expect(camera.property(for: .iso).validSettableValues.first(matchingCommonValue: .iso6400) != nil)
            let compensations = camera.property(for: .exposureCompensation).validSettableValues
            #expect(compensations.first { $0.commonValue?.thousandthsOfAStop == -3000 }?.rawValue == .integer(-9))
            #expect(compensations.first { $0.commonValue?.thousandthsOfAStop == 333 }?.rawValue == .integer(1))
            let balances = camera.property(for: .whiteBalance).validSettableValues
            #expect(balances.first(matchingCommonValue: .tungsten)?.rawValue == .string("Incandescent"))
            #expect(balances.first(matchingCommonValue: .fluorescent) != nil)
            try await camera.disconnect()
        }
    }

    @Test func aSetCallsTheSetMethodAndAChangeElsewhereArrivesThroughTheLongPoll() async throws {
        try await Self.withSimulator(eventTimeout: Self.deadline) { camera, simulator, log in
            try await camera.connect()
            try await camera.property(for: .iso).setValue(.iso400)
            #expect(camera.property(for: .iso).commonValue == .iso400)
            try await camera.property(for: .whiteBalance).setValue(.daylight)
            let minusTwoThirds = try #require(
                camera.property(for: .exposureCompensation).validSettableValues.first {
                    $0.commonValue?.thousandthsOfAStop == -667
                })
            try await camera.property(for: .exposureCompensation).setValue(minusTwoThirds)
            #expect(
                log.withLock { $0 }.filter { $0.hasPrefix("set ") }
                    == ["set IsoSpeedRate 400", "set WhiteBalance Daylight", "set ExposureCompensation -2"])
            // A change another client makes reaches the first camera's observers through its long poll, which
            // waits in the simulator until then.
            try await waitUntil("the first camera's long poll to wait") { simulator.longPollsWaiting >= 1 }
            let seen = Locked<[ISOValue?]>([])
            let token = camera.property(for: .iso).addObserver { property, _ in
                seen.withLock { $0.append(property.commonValue) }
            }
            let answer = try await Self.call("setIsoSpeedRate", [.string("1600")], port: camera.configuration.port)
            #expect(String(decoding: answer, as: UTF8.self).contains("\"result\":[0]"))
            try await waitUntil("the long poll to show ISO 1600") { seen.withLock { $0.contains(.iso1600) } }
            withExtendedLifetime(token) {}
            try await camera.disconnect()
        }
    }

    @Test func aValueTheCameraRefusesIsItsErrorArrayAsAClearError() async throws {
        try await Self.withSimulator { camera, _, _ in
            try await camera.connect()
            // Straight to the driver, past the property's own check of the values the camera lists.
            let connection = try camera.driverCore.connection(for: "the test")
            let error = await #expect(throws: ViewfinderError.self) {
                try await connection.setRawValue(.string("12345"), forPropertyNamed: CameraPropertyIdentifier.iso.name)
            }
            #expect(error?.code == .invalidPropertyValue, "\(String(describing: error))")
            #expect(error?.message.contains("setIsoSpeedRate") == true, "\(String(describing: error))")
            #expect(error?.message.contains("error 3") == true, "\(String(describing: error))")
            try await camera.disconnect()
        }
    }

    /// A camera that serves no card (no `setCameraFunction`) offers the postviews of the pictures taken.
    @Test func theShutterOffersThePostviewWhichDownloadsInPieces() async throws {
        try await Self.withSimulator(omitting: ["setCameraFunction"]) { camera, _, log in
            try await camera.connect()
            let added = Locked<[CameraFileItem]>([])
            let token = camera.addNewFileObserver { item in added.withLock { $0.append(item) } }
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
            withExtendedLifetime(token) {}
            #expect(added.withLock { $0.map(\.name) } == ["pict1.JPG"])
            #expect(log.withLock { $0 }.contains("new picture pict1.JPG"))
            let files = try #require(camera.fileAccess)
            let storage = try #require(try await files.storages().first)
            let items = try await files.contents(of: nil, in: storage)
            #expect(items.map(\.name) == ["pict1.JPG"])
            let progress = Locked<[CameraTransferProgress]>([])
            let bytes = try await files.downloadData(of: items[0]) { step in progress.withLock { $0.append(step) } }
            #expect(bytes.prefix(2) == [0xFF, 0xD8] && bytes.suffix(2) == [0xFF, 0xD9])
            #expect(progress.withLock { $0.last?.completedByteCount } == UInt64(bytes.count))
            #expect(progress.withLock { $0.allSatisfy { $0.totalByteCount == UInt64(bytes.count) } })
            try await camera.disconnect()
        }
    }

    @Test func aLongPollTheCameraNeverAnswersEndsTheConnectionAtItsDeadline() async throws {
        try await Self.withSimulator(eventTimeout: .seconds(600), longPollTimeout: .seconds(1)) { camera, _, _ in
            try await camera.connect()
            try await waitUntil("the connection to end") { camera.connectionState == .notConnected }
            let error = camera.lastDisconnection?.error
            #expect(error?.code == .timeout, "\(String(describing: error))")
            #expect(error?.message.contains("getEvent") == true, "\(String(describing: error))")
        }
    }

    @Test func disconnectingCancelsTheLongPollUnderWay() async throws {
        try await Self.withSimulator(eventTimeout: .seconds(600)) { camera, simulator, _ in
            try await camera.connect()
            try await waitUntil("the long poll to wait") { simulator.longPollsWaiting == 1 }
            try await camera.disconnect()
            #expect(camera.connectionState == .notConnected)
            #expect(camera.lastDisconnection?.wasExpected == true)
        }
    }

    @Test func valuesOutsideTheTablesAreUnknownAndNeverOffered() {
        #expect(SonyRemotePropertyValues.iso("ISO").isUnknown)
        #expect(SonyRemotePropertyValues.aperture("--").isUnknown)
        #expect(SonyRemotePropertyValues.shutterSpeed("0\"").isUnknown)
        #expect(SonyRemotePropertyValues.shutterSpeed("250").isUnknown)
        #expect(SonyRemotePropertyValues.whiteBalance("Moonlight").isUnknown)
        #expect(SonyRemotePropertyValues.exposureCompensation(1, stepIndex: 7).isUnknown)
        let offered = CameraPropertySettableValues(["200", "Multi Frame NR"].map(SonyRemotePropertyValues.iso))
        #expect(offered.first(matchingCommonValue: .iso200) != nil)
        #expect(offered.count == 1)
        #expect(
            SonyRemotePropertyValues.exposureCompensation(-3, stepIndex: 2).commonValue?.thousandthsOfAStop == -1500)
        #expect(SonyRemotePropertyValues.shutterSpeed("1.3\"").commonValue == ShutterSpeedValue(seconds: 1.3))
    }
}
