import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderSystem
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// The shutter button held half and fully down and let go, against the simulated cameras over loopback TCP: the
    /// simulated Canon's exposure lasts as long as the button is held, which the tests read back from the simulator,
    /// and the half press is followed by `autoFocusEngaged`.
    @Suite(.timeLimit(.minutes(3))) struct ShutterButtonTests {
        static let canon = CameraSimulator.Configuration(identity: .canon, sampleImageCount: 0)

        /// Lets go of the shutter through the completion handler form.
        static func disengageShutterWithCompletion(_ camera: PTPCamera) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                camera.disengageShutter { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        }

        /// Holds the shutter for `hold`, checking that a second hold and a one-shot picture are refused meanwhile, and
        /// that the picture's file comes and the simulated shutter stayed open as long.
        static func holdShutter(of harness: CameraHarness, for hold: Duration, files: Observed<CameraFileItem>)
            async throws
        {
            let camera = harness.camera
            let before = files.all.count
            try await camera.engageShutter()
            let again = await #expect(throws: ViewfinderError.self) { try await camera.engageShutter() }
            #expect(again?.code == .alreadyRunning)
            let shot = await #expect(throws: ViewfinderError.self) {
                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(false)
            }
            #expect(shot?.code == .deviceBusy)
            try await Task.sleep(for: hold)
            try await camera.disengageShutter()
            try await waitUntil("the picture's file") { files.all.count == before + 1 }
            let length = try #require(harness.simulator.lastExposureLength)
            #expect(length >= hold, "the exposure lasted \(length)")
        }

        @Test func canonExposesForAsLongAsTheShutterIsHeld() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let camera = harness.camera
                #expect(camera.supportedFunctionality.contains(.heldShutter))
                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }

                // The set shutter speed is 1/125: the exposure lasts as long as the button is held.
                try await Self.holdShutter(of: harness, for: .milliseconds(1500), files: files)

                // Another hold, let go through the completion handler form.
                let secondPressed = ContinuousClock.now
                try await camera.engageShutter()
                try await Task.sleep(for: .milliseconds(300))
                try await Self.disengageShutterWithCompletion(camera)
                try await waitUntil("the second picture's file") { files.all.count == 2 }
                let second = try #require(harness.simulator.lastExposureLength)
                #expect(second >= .milliseconds(300), "the exposure lasted \(second)")

                // The simulator remembers both exposures, oldest first: when each opened and for how long.
                let exposures = harness.simulator.exposures
                #expect(exposures.count == 2)
                #expect(exposures.last?.length == second)
                #expect(exposures.first.map { $0.length >= .milliseconds(1500) } == true)
                #expect(exposures.first.map { $0.opened < secondPressed } == true)
                #expect(exposures.last.map { $0.opened >= secondPressed } == true)

                // Let go when nothing is held: a clear refusal.
                let notHeld = await #expect(throws: ViewfinderError.self) { try await camera.disengageShutter() }
                #expect(notHeld?.code == .notAvailable)
                #expect(notHeld?.message.contains("not held") == true, "\(String(describing: notHeld))")
                withExtendedLifetime(token) {}
            }
        }

        @Test func canonHalfPressIsHeldUntilLetGoAndTheFullPressKeepsIt() async throws {
            try await CameraHarness.run(Self.canon) { harness in
                let camera = harness.camera
                #expect(camera.supportedFunctionality.contains(.shutterHalfPress))
                let engaged = Observed<Bool>()
                let token = camera.addAutoFocusEngagedObserver { engaged.append($0) }
                let published = Observed<Bool>()
                let cancellable = camera.autoFocusEngagedPublisher().sink { published.append($0) }
                let files = Observed<CameraFileItem>()
                let fileToken = camera.addNewFileObserver { files.append($0) }

                #expect(!camera.autoFocusEngaged)
                try await camera.engageAutoFocus()
                #expect(camera.autoFocusEngaged)
                // The full press while the half press is held takes the picture, and leaves the half press held.
                try await camera.engageShutter()
                try await camera.disengageShutter()
                try await waitUntil("the picture's file") { files.all.count == 1 }
                #expect(camera.autoFocusEngaged)
                #expect(harness.simulator.requestsAnswered(.canonEOSRemoteReleaseOn) == 2)
                try await camera.disengageAutoFocus()
                #expect(!camera.autoFocusEngaged)
                #expect(engaged.all == [true, false])
                #expect(published.all == [false, true, false])

                // A connection that ends lets go of the half press.
                try await camera.engageAutoFocus()
                try await camera.disconnect()
                #expect(!camera.autoFocusEngaged)
                #expect(engaged.all == [true, false, true, false])
                withExtendedLifetime((token, fileToken)) {}
                cancellable.cancel()
            }
        }

        @Test func nikonHalfPressFocusesWithAfDriveAndSaysWhenItCannot() async throws {
            var nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)
            try await CameraHarness.run(nikon) { harness in
                let camera = harness.camera
                #expect(camera.supportedFunctionality.contains(.shutterHalfPress))
                try await camera.engageAutoFocus()
                #expect(camera.autoFocusEngaged)
                #expect(harness.simulator.requestsAnswered(.nikonAfDrive) == 1)
                try await camera.disengageAutoFocus()
                #expect(!camera.autoFocusEngaged)
                #expect(harness.simulator.requestsAnswered(.nikonAfDriveCancel) == 1)
            }
            nikon.focusSucceeds = false
            try await CameraHarness.run(nikon) { harness in
                let camera = harness.camera
                let refused = await #expect(throws: ViewfinderError.self) { try await camera.engageAutoFocus() }
                #expect(refused?.code == .notAvailable)
                #expect(refused?.message.contains("could not focus") == true, "\(String(describing: refused))")
                #expect(refused?.message.contains("picture") == false, "\(String(describing: refused))")
                #expect(!camera.autoFocusEngaged)
            }
        }

        @Test func nikonExposesForAsLongAsTheShutterIsHeldAtBulb() async throws {
            let nikon = CameraSimulator.Configuration(identity: .nikon, sampleImageCount: 0)
            try await CameraHarness.run(nikon) { harness in
                let camera = harness.camera
                #expect(camera.supportedFunctionality.contains(.heldShutter))
                let files = Observed<CameraFileItem>()
                let token = camera.addNewFileObserver { files.append($0) }
                let shutter = camera.property(for: .shutterSpeed)
                try await waitUntil("bulb among the shutter speeds") {
                    shutter.validSettableValues.contains { $0.commonValue == .bulb }
                }
                try await shutter.setValue(.bulb)

                let hold = Duration.milliseconds(1500)
                try await Self.holdShutter(of: harness, for: hold, files: files)
                // As libgphoto2's bulb: the computer takes control, the shutter opens without autofocus to the card,
                // and TerminateCapture closes it.
                #expect(harness.simulator.requestsAnswered(.nikonChangeCameraMode) == 1)
                #expect(harness.simulator.requestsAnswered(.nikonInitiateCaptureRecInMedia) == 1)
                #expect(harness.simulator.requestsAnswered(.nikonTerminateCapture) == 1)

                // At a timed speed the picture is taken as the shutter is pressed, and letting go returns with it.
                try await shutter.setValue(ShutterSpeedValue(seconds: 1.0 / 125)!)
                try await camera.engageShutter()
                try await Self.disengageShutterWithCompletion(camera)
                try await waitUntil("the second picture's file") { files.all.count == 2 }
                let timed = try #require(harness.simulator.lastExposureLength)
                #expect(timed < hold, "the exposure lasted \(timed)")

                let notHeld = await #expect(throws: ViewfinderError.self) { try await camera.disengageShutter() }
                #expect(notHeld?.code == .notAvailable)
                withExtendedLifetime(token) {}
            }
        }

        @Test func aCameraWhoseShutterButtonCannotBeHeldSaysSo() async throws {
            try await CameraHarness.run(CameraSimulator.Configuration(sampleImageCount: 0)) { harness in
                let camera = harness.camera
                #expect(!camera.supportedFunctionality.contains(.heldShutter))
                let refused = await #expect(throws: ViewfinderError.self) { try await camera.engageShutter() }
                #expect(refused?.code == .notAvailable)
                #expect(refused?.message.contains("hold the shutter") == true, "\(String(describing: refused))")
                #expect(harness.simulator.lastShutterRelease == nil)
                #expect(!camera.supportedFunctionality.contains(.shutterHalfPress))
                let halfPress = await #expect(throws: ViewfinderError.self) { try await camera.engageAutoFocus() }
                #expect(halfPress?.code == .notAvailable)
                #expect(!camera.autoFocusEngaged)
            }
        }
    }
}
