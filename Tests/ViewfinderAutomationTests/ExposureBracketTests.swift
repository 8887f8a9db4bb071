import Testing
import ViewfinderCameras
import ViewfinderSimulator
import ViewfinderTestSupport

/// Exposure brackets against the simulated Canon and Nikon over loopback TCP: the values come from the camera's own,
/// in the cameras' order, and the setting is back where it was afterwards, on the camera too.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ExposureBracketTests {
    @Test func aShutterSpeedBracketStepsAroundTheCurrentSpeedAndRestoresIt() async throws {
        try await SimulatedCameraSession.run(SimulatedCameraSession.canon) { simulator, camera in
            let shutter = camera.property(for: .shutterSpeed)
            #expect(shutter.currentValue?.localizedDisplayValue == "1/125")
            let bracket = ExposureBracket(setting: .shutterSpeed, shots: 3, step: ExposureStops(wholeStops: 1))
            let events = try await collect(bracket.start(on: camera))
            let settings = events.compactMap { if case .exposing(_, let setting) = $0 { setting } else { nil } }
            #expect(settings == ["1/125", "1/250", "1/60"])
            #expect(events.capturedFrames == [1, 2, 3])
            #expect(events.contains(.restored(setting: "1/125")))
            #expect(events.summary == AutomationSummary(framesCaptured: 3))
            #expect(shutter.currentValue?.localizedDisplayValue == "1/125")
            #expect(simulator.modelValue(of: .exposureTime) == .uint32(80), "the camera is back at 1/125")
        }
    }

    @Test func anExposureCompensationBracketTakesFiveShotsAStopApart() async throws {
        try await SimulatedCameraSession.run(SimulatedCameraSession.nikon) { simulator, camera in
            try await camera.property(for: .autoExposureMode).setValue(.program)
            let compensation = camera.property(for: .exposureCompensation)
            try await waitUntil("the compensation to become settable") { !compensation.validSettableValues.isEmpty }
            let bracket = ExposureBracket(setting: .exposureCompensation, shots: 5, step: ExposureStops(wholeStops: 1))
            let events = try await collect(bracket.start(on: camera))
            let settings = events.compactMap { if case .exposing(_, let setting) = $0 { setting } else { nil } }
            let expected = [0, -1, 1, -2, 2].map { ExposureStops(wholeStops: abs($0), isNegative: $0 < 0).description }
            #expect(settings == expected)
            #expect(events.capturedFrames == [1, 2, 3, 4, 5])
            #expect(compensation.currentValue?.commonValue == .zero)
            #expect(simulator.modelValue(of: .exposureBiasCompensation) == .int16(0))
        }
    }

    @Test func aBracketWiderThanTheCamerasValuesIsRefusedBeforeAnyPicture() async throws {
        try await SimulatedCameraSession.run(SimulatedCameraSession.canon) { simulator, camera in
            let bracket = ExposureBracket(setting: .shutterSpeed, shots: 15, step: ExposureStops(wholeStops: 3))
            let refused = await #expect(throws: ViewfinderError.self) { try await collect(bracket.start(on: camera)) }
            #expect(refused?.code == .invalidArgument)
            #expect(refused?.message.contains("beyond the camera's shutter speed values") == true, "\(refused!)")
            #expect(simulator.requestsAnswered(.canonEOSRemoteReleaseOn) == 0)
            #expect(camera.property(for: .shutterSpeed).currentValue?.localizedDisplayValue == "1/125")

            // In manual exposure the camera offers no compensation to step: said so, nothing taken.
            let compensation = ExposureBracket(setting: .exposureCompensation)
            let none = await #expect(throws: ViewfinderError.self) { try await collect(compensation.start(on: camera)) }
            #expect(none?.code == .notAvailable, "\(none!)")
            #expect(simulator.requestsAnswered(.canonEOSRemoteReleaseOn) == 0)
        }
    }

    @Test func aCancelledBracketRestoresTheSetting() async throws {
        try await SimulatedCameraSession.run(SimulatedCameraSession.nikon) { simulator, camera in
            let run = ExposureBracket(setting: .shutterSpeed, shots: 5).start(on: camera)
            let events = try await collect(run) { event in
                if case .captured(2, _) = event { run.cancel() }
            }
            #expect(events.summary?.wasCancelled == true)
            #expect(events.summary?.framesCaptured ?? 0 >= 2)
            #expect(events.contains(.restored(setting: "1/125")))
            #expect(simulator.modelValue(of: .exposureTime) == .uint32(80))
        }
    }
}
