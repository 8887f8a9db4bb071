import Testing
import ViewfinderCore
import ViewfinderSimulator
import ViewfinderSonyRemote
import ViewfinderSystem
import ViewfinderTestSupport

/// The Sony Camera Remote API driver's exposure and focus modes, half press, touch AF and video against the
/// simulated α6000 on loopback.
@Suite struct SonyRemoteShootingTests {
    @Test func theExposureAndFocusModesAreTypedAndSetByTheirCalls() async throws {
        try await SonyRemoteCameraTests.withSimulator { camera, _, log in
            try await camera.connect()
            let exposureMode = camera.property(for: .autoExposureMode)
            #expect(exposureMode.commonValue == .program)
            #expect(exposureMode.currentValue?.localizedDisplayValue == "Program Auto")
            #expect(exposureMode.validSettableValues.first(matchingCommonValue: .manual)?.rawValue == .string("Manual"))
            #expect(exposureMode.validSettableValues.first(matchingCommonValue: .bulb) == nil)
            try await exposureMode.setValue(.aperturePriority)
            #expect(exposureMode.commonValue == .aperturePriority)
            let focusMode = camera.property(for: .focusMode)
            #expect(focusMode.commonValue == .singleAutoFocus)
            try await focusMode.setValue(.manual)
            #expect(focusMode.commonValue == .manual)
            #expect(focusMode.validSettableValues.first(matchingCommonValue: .continuousAutoFocus) != nil)
            #expect(
                log.withLock { $0 }.filter { $0.hasPrefix("set ") } == [
                    "set ExposureMode Aperture", "set FocusMode MF",
                ])
            try await camera.disconnect()
        }
    }

    @Test func theHalfPressAndTouchAFAreTheCameraCalls() async throws {
        try await SonyRemoteCameraTests.withSimulator { camera, _, log in
            try await camera.connect()
            #expect(camera.supportedFunctionality.isSuperset(of: [.shutterHalfPress, .touchAutoFocus]))
            try await camera.engageAutoFocus()
            #expect(camera.autoFocusEngaged)
            try await camera.disengageAutoFocus()
            #expect(!camera.autoFocusEngaged)
            // A point is in the live view picture's pixels, which the driver knows once live view shows a frame.
            let early = await #expect(throws: ViewfinderError.self) {
                try await camera.touchAutoFocus(at: LiveViewPoint(x: 80, y: 60))
            }
            #expect(early?.code == .notAvailable, "\(String(describing: early))")
            let connection = try camera.driverCore.connection(for: "the test")
            try await connection.startLiveView()
            _ = try await connection.liveViewImage()
            // The simulator's frames are 320×240: (80, 180) is 25 % across and 75 % down.
            try await camera.touchAutoFocus(at: LiveViewPoint(x: 80, y: 180))
            let outside = await #expect(throws: ViewfinderError.self) {
                try await camera.touchAutoFocus(at: LiveViewPoint(x: 321, y: 10))
            }
            #expect(outside?.code == .invalidArgument, "\(String(describing: outside))")
            try await camera.engageAutoFocus()
            try await camera.disengageAutoFocus()
            await connection.endLiveView()
            let focusing = log.withLock { $0 }.filter { $0.hasPrefix("half press") || $0.hasPrefix("touch AF") }
            #expect(
                focusing == [
                    "half press", "half press released", "touch AF at 25,75", "half press", "half press released",
                    "touch AF cancelled",
                ])
            try await camera.disconnect()
        }
    }

    @Test func theHalfPressAndTouchAFAreNotAvailableWhereTheCameraDoesNotListThem() async throws {
        try await SonyRemoteCameraTests.withSimulator(omitting: [
            "actHalfPressShutter", "cancelHalfPressShutter", "setTouchAFPosition",
        ]) { camera, _, log in
            try await camera.connect()
            #expect(!camera.supportedFunctionality.contains(.shutterHalfPress))
            #expect(!camera.supportedFunctionality.contains(.touchAutoFocus))
            let halfPress = await #expect(throws: ViewfinderError.self) { try await camera.engageAutoFocus() }
            #expect(halfPress?.code == .notAvailable, "\(String(describing: halfPress))")
            let touch = await #expect(throws: ViewfinderError.self) {
                try await camera.touchAutoFocus(at: LiveViewPoint(x: 1, y: 1))
            }
            #expect(touch?.code == .notAvailable, "\(String(describing: touch))")
            #expect(!log.withLock { $0 }.contains { $0.hasPrefix("half press") || $0.hasPrefix("touch AF") })
            try await camera.disconnect()
        }
    }

    @Test func videoSwitchesTheShootModeToMovieAndTheStatusReportsTheRecording() async throws {
        try await SonyRemoteCameraTests.withSimulator { camera, _, log in
            try await camera.connect()
            #expect(camera.supportedFunctionality.contains(.videoRecording))
            #expect(camera.videoRecordingState == .notRecording)
            try await camera.startVideoRecording()
            try await waitUntil("the recording to show") { camera.videoRecordingState != .notRecording }
            try await camera.stopVideoRecording()
            try await waitUntil("the recording to end") { camera.videoRecordingState == .notRecording }
            // A picture after the movie switches the shoot mode back to still first.
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
            let steps = log.withLock { $0 }.filter {
                $0.hasPrefix("set ShootMode") || $0.hasPrefix("movie") || $0.hasPrefix("new picture")
            }
            #expect(
                steps == [
                    "set ShootMode movie", "movie recording started", "movie recording stopped", "set ShootMode still",
                    "new picture pict1.JPG",
                ])
            try await camera.disconnect()
        }
    }

    @Test func videoIsNotAvailableWhereTheCameraOffersNoMovieCalls() async throws {
        try await SonyRemoteCameraTests.withSimulator(omitting: ["startMovieRec", "stopMovieRec", "setShootMode"]) {
            camera, _, _ in
            try await camera.connect()
            #expect(!camera.supportedFunctionality.contains(.videoRecording))
            let error = await #expect(throws: ViewfinderError.self) { try await camera.startVideoRecording() }
            #expect(error?.code == .notAvailable, "\(String(describing: error))")
            try await camera.disconnect()
        }
    }

    @Test func modesOutsideTheTablesAreUnknown() {
        #expect(SonyRemotePropertyValues.exposureMode("Scene Selection").isUnknown)
        #expect(SonyRemotePropertyValues.exposureMode("Superior Auto").commonValue == .fullyAutomatic)
        #expect(SonyRemotePropertyValues.focusMode("DMF").commonValue == .singleAutoFocus)
        #expect(SonyRemotePropertyValues.focusMode("Tracking").isUnknown)
    }
}
