import Testing
import ViewfinderCore
import ViewfinderLumix
import ViewfinderSystem
import ViewfinderTestSupport

/// The Lumix driver against a TZ90's recorded answers served back over loopback HTTP.
@Suite struct LumixCameraTests {
    /// The deadline of a command and of a live view frame unless a test says otherwise: one that only a hang reaches,
    /// as a busy machine running the tests under the thread sanitizer may take seconds to answer on loopback.
    static let deadline = Duration.seconds(30)

    /// A camera polled every 20 ms.
    static func camera(
        port: UInt16, contentPort: UInt16 = 60606, maximumAnswerLength: Int = 4 << 20,
        requestTimeout: Duration = deadline, liveViewTimeout: Duration = deadline
    ) -> LumixCamera {
        var configuration = LumixCamera.Configuration()
        configuration.port = port
        configuration.contentPort = contentPort
        configuration.pollInterval = .milliseconds(20)
        configuration.requestTimeout = requestTimeout
        configuration.liveViewTimeout = liveViewTimeout
        configuration.maximumAnswerLength = maximumAnswerLength
        return LumixCamera(host: "127.0.0.1", configuration: configuration)
    }

    /// Serves `tz90` on loopback, connects to it, runs `body` with the camera and the responder, and disconnects.
    static func withConnected(
        _ tz90: RecordedTZ90 = RecordedTZ90(), liveViewTimeout: Duration = deadline,
        _ body: (LumixCamera, ScriptedHTTPResponder) async throws -> Void
    ) async throws {
        let responder = try ScriptedHTTPResponder(answer: tz90.answer)
        do {
            let camera = Self.camera(port: responder.port, liveViewTimeout: liveViewTimeout)
            try await camera.connect()
            try await body(camera, responder)
            try await camera.disconnect()
        } catch {
            await offThePool { responder.close() }
            throw error
        }
        await offThePool { responder.close() }
    }

    /// Serves `tz90` on loopback and returns the error connecting to it ends with.
    static func connectionError(
        _ tz90: RecordedTZ90, maximumAnswerLength: Int = 4 << 20, requestTimeout: Duration = deadline
    ) async throws -> ViewfinderError? {
        let responder = try ScriptedHTTPResponder(answer: tz90.answer)
        let camera = Self.camera(
            port: responder.port, maximumAnswerLength: maximumAnswerLength, requestTimeout: requestTimeout)
        let error = await #expect(throws: ViewfinderError.self) { try await camera.connect() }
        #expect(camera.connectionState == .notConnected)
        await offThePool { responder.close() }
        return error
    }

    @Test func connectsToTheRecordedTZ90AndReadsItsSettings() async throws {
        try await Self.withConnected { camera, responder in
            #expect(camera.deviceInfo?.manufacturer == "Panasonic")
            #expect(camera.deviceInfo?.model == "DC2702")
            #expect(camera.deviceInfo?.version == "D2.91")
            #expect(
                responder.queries.prefix(3) == [
                    "mode=accctrl&type=req_acc&value=0&value2=Viewfinder", "mode=getinfo&type=capability",
                    "mode=getinfo&type=lens",
                ])
            #expect(responder.queries.contains("mode=camcmd&value=recmode"))

            let iso = camera.property(for: .iso)
            #expect(iso.currentValue?.commonValue == .automatic)
            #expect(iso.currentValue?.rawValue == .string("auto"))
            #expect(iso.validSettableValues.first(matchingCommonValue: .iso400)?.rawValue == .string("400"))
            // The menu list offers 22 ISOs; the current menu enables these in full stops only.
            #expect(
                iso.validSettableValues.map(\.rawValue)
                    == ["auto", "80", "100", "200", "400", "800", "1600", "3200"].map { .string($0) })
            // focal="1366/256" is Av 5⅓: f/6.3; shtrspeed="2560/256" is Tv 10: 1/1000.
            #expect(camera.property(for: .aperture).commonValue == ApertureValue(fNumber: 6.3))
            #expect(camera.property(for: .shutterSpeed).commonValue == ShutterSpeedValue(seconds: 1.0 / 1000))
            // The lens answer's limits: f/3.3 to f/8 (in thirds from f/3.5), 4 s to 1/2000.
            let apertures = camera.property(for: .aperture).validSettableValues.compactMap(\.commonValue)
            #expect(apertures.first == ApertureValue(fNumber: 3.5))
            #expect(apertures.last == ApertureValue(fNumber: 8))
            let speeds = camera.property(for: .shutterSpeed).validSettableValues.compactMap(\.commonValue)
            #expect(speeds.first == ShutterSpeedValue(seconds: 4))
            #expect(speeds.last == ShutterSpeedValue(seconds: 1.0 / 2000))
            #expect(camera.property(for: .exposureCompensation).commonValue?.thousandthsOfAStop == 333)
            #expect(camera.property(for: .exposureCompensation).validSettableValues.count == 31)
            #expect(camera.property(for: .whiteBalance).commonValue == .automatic)
            #expect(camera.property(for: .whiteBalance).validSettableValues.contains { $0.commonValue == .tungsten })
            #expect(camera.property(for: .focusMode).commonValue == .autoFocus)
            #expect(camera.property(for: .driveMode).commonValue == .single)
            #expect(camera.property(for: .batteryLevel).commonValue == .percent(100))
            #expect(camera.property(for: .shotsAvailable).commonValue == ShotsAvailableValue(1325))
        }
    }

    @Test func aSetSendsSetsettingAndReturnsOnceTheCameraShowsIt() async throws {
        try await Self.withConnected { camera, responder in
            try await camera.property(for: .iso).setValue(.iso400)
            #expect(camera.property(for: .iso).commonValue == .iso400)
            #expect(responder.queries.contains("mode=setsetting&type=iso&value=400"))
            let f8 = try #require(
                camera.property(for: .aperture).validSettableValues.first { $0.commonValue?.fNumber == 8 })
            try await camera.property(for: .aperture).setValue(f8)
            #expect(responder.queries.contains("mode=setsetting&type=focal&value=1536/256"))
            #expect(camera.property(for: .aperture).currentValue == f8)
        }
    }

    @Test func changesOnTheCameraReachObserversThroughThePoll() async throws {
        let tz90 = RecordedTZ90()
        try await Self.withConnected(tz90) { camera, _ in
            let seen = Locked<[ISOValue?]>([])
            let token = camera.property(for: .iso).addObserver { property, _ in
                seen.withLock { $0.append(property.commonValue) }
            }
            tz90.set("iso", to: "800")
            try await waitUntil("the poll to show ISO 800") { seen.withLock { $0.contains(.iso800) } }
            #expect(camera.property(for: .iso).currentValue?.rawValue == .string("800"))
            withExtendedLifetime(token) {}
        }
    }

    @Test func valuesOutsideTheTablesAreUnknownAndNeverOffered() async throws {
        let tz90 = RecordedTZ90()
        // The TZ90 without a lens reading answered focal="32767/256" (the log's first part).
        tz90.set("focal", to: "32767/256")
        tz90.set("iso", to: "hi_iso_9")
        try await Self.withConnected(tz90) { camera, _ in
            let aperture = camera.property(for: .aperture)
            #expect(aperture.currentValue?.isUnknown == true)
            #expect(aperture.currentValue?.localizedDisplayValue.hasPrefix("Unknown") == true)
            #expect(aperture.validSettableValues.isEmpty)
            let iso = camera.property(for: .iso)
            #expect(iso.currentValue?.isUnknown == true)
            #expect(iso.commonValue == nil)
            #expect(!iso.validSettableValues.contains { $0.isUnknown })
        }
    }

    @Test func theShutterIsPressedAndLetGo() async throws {
        try await Self.withConnected { camera, responder in
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
            let commands = responder.queries.filter { $0.hasPrefix("mode=camcmd") && !$0.hasSuffix("recmode") }
            #expect(
                commands == [
                    "mode=camcmd&value=oneshot_af", "mode=camcmd&value=capture", "mode=camcmd&value=capture_cancel",
                ])
        }
    }

    @Test func aHalfPressFocusesOnceAndTheShutterIsHeldUntilLetGo() async throws {
        try await Self.withConnected { camera, responder in
            #expect(camera.supportedFunctionality.isSuperset(of: [.shutterHalfPress, .heldShutter]))
            #expect(camera.supportedFunctionality.isDisjoint(with: [.directFocusDrive, .clockUpdate, .fileDeletion]))
            let commands = { responder.queries.filter { $0.hasPrefix("mode=camcmd") && !$0.hasSuffix("recmode") } }
            try await camera.engageAutoFocus()
            #expect(camera.autoFocusEngaged)
            #expect(commands() == ["mode=camcmd&value=oneshot_af"])
            try await camera.disengageAutoFocus()
            #expect(!camera.autoFocusEngaged)
            try await camera.engageShutter()
            #expect(commands().last == "mode=camcmd&value=capture")
            try await camera.disengageShutter()
            #expect(commands().suffix(2) == ["mode=camcmd&value=capture", "mode=camcmd&value=capture_cancel"])
            let error = await #expect(throws: ViewfinderError.self) {
                try await camera.driveFocus(.small, towards: .towardsCamera)
            }
            #expect(error?.code == .notAvailable)
        }
    }

    @Test func aBodyWithoutOneShotAutofocusHasNoHalfPress() async throws {
        let tz90 = RecordedTZ90()
        let capability = String(
            decoding: try #require(RecordedTZ90.recorded("mode=getinfo&type=capability")), as: UTF8.self)
        #expect(capability.contains("<camspec>oneshot_af_enable</camspec>"))
        tz90.override(
            "mode=getinfo&type=capability",
            with: .body(Array(capability.replacing("<camspec>oneshot_af_enable</camspec>", with: "").utf8)))
        try await Self.withConnected(tz90) { camera, responder in
            #expect(!camera.supportedFunctionality.contains(.shutterHalfPress))
            let error = await #expect(throws: ViewfinderError.self) { try await camera.engageAutoFocus() }
            #expect(error?.code == .notAvailable)
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
            #expect(!responder.queries.contains("mode=camcmd&value=oneshot_af"))
            #expect(responder.queries.contains("mode=camcmd&value=capture"))
        }
    }

    @Test func aBusyCameraSaysSo() async throws {
        let tz90 = RecordedTZ90()
        tz90.override(
            "mode=camcmd&value=capture",
            with: .body(Array("<?xml version=\"1.0\"?><camrply><result>err_busy</result></camrply>".utf8)))
        try await Self.withConnected(tz90) { camera, _ in
            let error = await #expect(throws: ViewfinderError.self) {
                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
            }
            #expect(error?.code == .deviceBusy)
            #expect(error?.message.contains("err_busy") == true, "\(String(describing: error))")
        }
    }

    @Test func aBusyStateKeepsTheConnectionAndThePollGoesOn() async throws {
        let tz90 = RecordedTZ90()
        try await Self.withConnected(tz90) { camera, responder in
            let polls = responder.queries.count { $0 == "mode=getstate" }
            tz90.override(
                "mode=getstate",
                with: .body(Array("<?xml version=\"1.0\"?><camrply><result>err_busy</result></camrply>".utf8)))
            try await waitUntil("three busy answers to the poll") {
                responder.queries.count { $0 == "mode=getstate" } >= polls + 3
            }
            #expect(camera.connectionState == .connected)
            tz90.override("mode=getstate", with: .body(try #require(RecordedTZ90.recorded("mode=getstate"))))
            tz90.set("iso", to: "200")
            try await waitUntil("the poll to show ISO 200") { camera.property(for: .iso).commonValue == .iso200 }
        }
    }

    @Test func aBodyThatNeedsTheNewerLoginSaysWhatToDo() async throws {
        let tz90 = RecordedTZ90()
        tz90.override(
            "mode=accctrl&type=req_acc&value=0&value2=Viewfinder",
            with: .body(Array("<?xml version=\"1.0\"?><camrply><result>err_reject</result></camrply>".utf8)))
        tz90.override("mode=accctrl&type=req_acc_g", with: .body(Array("ok,5e1f36a2".utf8)))
        let error = try await Self.connectionError(tz90)
        #expect(error?.code == .pairingRequired)
        #expect(error?.message.contains("newer login") == true, "\(String(describing: error))")
    }

    @Test func aRefusalSaysToAllowTheConnectionOnTheCamera() async throws {
        let tz90 = RecordedTZ90()
        tz90.override(
            "mode=accctrl&type=req_acc&value=0&value2=Viewfinder",
            with: .body(Array("<?xml version=\"1.0\"?><camrply><result>err_reject</result></camrply>".utf8)))
        tz90.override(
            "mode=accctrl&type=req_acc_g",
            with: .body(Array("<?xml version=\"1.0\"?><camrply><result>err_non_support</result></camrply>".utf8)))
        let error = try await Self.connectionError(tz90)
        #expect(error?.code == .pairingRequired)
        #expect(error?.message.contains("Remote Shooting") == true, "\(String(describing: error))")
    }

    @Test func aCameraThatGoesAwayEndsTheConnectionWithWhy() async throws {
        let tz90 = RecordedTZ90()
        let responder = try ScriptedHTTPResponder(answer: tz90.answer)
        let camera = Self.camera(port: responder.port)
        try await camera.connect()
        // The observers hear of the end once the connection's values are forgotten; connectionState says so before.
        let ended = Locked(false)
        let token = camera.addConnectionStateObserver { state in
            if state == .notConnected { ended.withLock { $0 = true } }
        }
        await offThePool { responder.close() }
        try await waitUntil("the observers to hear the camera is not connected") { ended.withLock { $0 } }
        withExtendedLifetime(token) {}
        let code = camera.lastDisconnection?.error?.code
        #expect(code == .connectionFailed || code == .disconnected, "\(String(describing: camera.lastDisconnection))")
        #expect(camera.property(for: .iso).currentValue == nil)
    }
}
