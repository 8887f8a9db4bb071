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

    @Test func modesOutsideTheTablesAreUnknown() {
        #expect(SonyRemotePropertyValues.exposureMode("Scene Selection").isUnknown)
        #expect(SonyRemotePropertyValues.exposureMode("Superior Auto").commonValue == .fullyAutomatic)
        #expect(SonyRemotePropertyValues.focusMode("DMF").commonValue == .singleAutoFocus)
        #expect(SonyRemotePropertyValues.focusMode("Tracking").isUnknown)
    }
}
