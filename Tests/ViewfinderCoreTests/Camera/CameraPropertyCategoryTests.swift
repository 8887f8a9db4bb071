import Testing
import ViewfinderCore

/// Property categories, the identifiers of the properties a camera reports and the populated properties of a
/// category.
@Suite struct CameraPropertyCategoryTests {
    @Test func standardIdentifiersCarryTheirCategories() {
        #expect(CameraPropertyIdentifier.iso.category == .exposureSetting)
        #expect(CameraPropertyIdentifier.shutterSpeed.category == .exposureSetting)
        #expect(CameraPropertyIdentifier.aperture.category == .exposureSetting)
        #expect(CameraPropertyIdentifier.exposureCompensation.category == .exposureSetting)
        #expect(CameraPropertyIdentifier.autoExposureMode.category == .captureSetting)
        #expect(CameraPropertyIdentifier.focusMode.category == .captureSetting)
        #expect(CameraPropertyIdentifier.driveMode.category == .captureSetting)
        #expect(CameraPropertyIdentifier.whiteBalance.category == .imagingSetting)
        #expect(CameraPropertyIdentifier.batteryLevel.category == .information)
        #expect(CameraPropertyIdentifier.shotsAvailable.category == .information)
        #expect(CameraPropertyIdentifier.meteringMode.category == .imagingSetting)
        #expect(CameraPropertyIdentifier.focalLength.category == .information)
        #expect(CameraPropertyIdentifier.imageDestination.category == .configurationSetting)
        #expect(CameraPropertyIdentifier.imageQuality.category == .imagingSetting)
        #expect(CameraPropertyIdentifier.colorTone.category == .imagingSetting)
        #expect(CameraPropertyIdentifier.mirrorLockupEnabled.category == .captureSetting)
        #expect(CameraPropertyIdentifier.depthOfFieldPreview.category == .captureSetting)
        #expect(CameraPropertyIdentifier.lensName.category == .information)
        #expect(CameraPropertyIdentifier.lightMeterReading.category == .information)
        #expect(CameraPropertyIdentifier.videoRecordingFormat.category == .videoFormat)
        let control = CameraPropertyIdentifier<CameraControlValue>(name: "contrast", localizedDisplayName: "Contrast")
        #expect(control.category == .unknown)
    }

    @Test func typeErasedIdentifiersAreEqualForTheSameNameAndValueType() throws {
        let iso = AnyCameraPropertyIdentifier(.iso)
        #expect(iso == AnyCameraPropertyIdentifier(CameraPropertyIdentifier<ISOValue>.iso))
        #expect(iso.name == "iso" && iso.localizedDisplayName == "ISO" && iso.category == .exposureSetting)
        // The same name for values of another type is another property.
        let other = AnyCameraPropertyIdentifier(
            CameraPropertyIdentifier<CameraControlValue>(name: "iso", localizedDisplayName: "ISO"))
        #expect(iso != other)
        #expect(Set([iso, other, AnyCameraPropertyIdentifier(.iso)]).count == 2)
        #expect(try #require(iso.typed(as: ISOValue.self)) == .iso)
        #expect(iso.typed(as: ApertureValue.self) == nil)
    }

    @Test func knownIdentifiersAreThePropertiesTheCameraReported() {
        let camera = FakeCamera()
        // Asking for a property the camera has not reported does not make it known.
        _ = camera.property(for: .whiteBalance)
        #expect(camera.knownPropertyIdentifiers.isEmpty)

        camera.installStandardProperties()
        let battery = TypedCameraPropertyValue(BatteryLevelValue.percent(80), rawValue: .integer(80))
        camera.cameraReports(.batteryLevel, battery)
        #expect(
            camera.knownPropertyIdentifiers
                == Set([
                    AnyCameraPropertyIdentifier(.iso), AnyCameraPropertyIdentifier(.shutterSpeed),
                    AnyCameraPropertyIdentifier(.aperture), AnyCameraPropertyIdentifier(.exposureCompensation),
                    AnyCameraPropertyIdentifier(.batteryLevel),
                ]))

        camera.loseConnection(ViewfinderError(.disconnected, "gone"))
        #expect(camera.knownPropertyIdentifiers.isEmpty)
    }

    @Test func populatedPropertiesAreThoseOfTheCategoryWithAValue() throws {
        let camera = FakeCamera()
        camera.installStandardProperties()
        // A property with values to set but no current value is known, not populated.
        let focusModes = [TypedCameraPropertyValue(FocusModeValue.manual, rawValue: .integer(1))]
        camera.install(.focusMode, values: focusModes, current: nil)
        #expect(camera.knownPropertyIdentifiers.contains(AnyCameraPropertyIdentifier(.focusMode)))
        #expect(camera.populatedProperties(in: .captureSetting).isEmpty)

        let exposure = camera.populatedProperties(in: .exposureSetting)
        #expect(exposure.map(\.anyIdentifier.name) == ["aperture", "exposureCompensation", "iso", "shutterSpeed"])
        #expect(exposure.allSatisfy { $0.category == .exposureSetting })
        let iso = try #require(exposure.first { $0.anyIdentifier == AnyCameraPropertyIdentifier(.iso) })
        #expect(iso.localizedDisplayValue == "ISO 400")
        #expect(iso === camera.property(for: .iso))
        #expect(camera.populatedProperties(in: .information).isEmpty)

        camera.cameraReports(
            .shotsAvailable, TypedCameraPropertyValue(ShotsAvailableValue(312), rawValue: .integer(312)))
        let information = camera.populatedProperties(in: .information)
        #expect(information.map(\.localizedDisplayName) == ["Shots Available"])
    }

    @Test func focalLengthsShowAsCamerasShowThem() throws {
        #expect(FocalLengthValue(hundredthsOfAMillimetre: 3500)?.localizedDisplayValue == "35 mm")
        #expect(FocalLengthValue(hundredthsOfAMillimetre: 2449)?.localizedDisplayValue == "24 mm")
        #expect(FocalLengthValue(hundredthsOfAMillimetre: 450)?.localizedDisplayValue == "4.5 mm")
        #expect(FocalLengthValue(hundredthsOfAMillimetre: 800)?.localizedDisplayValue == "8 mm")
        #expect(FocalLengthValue(hundredthsOfAMillimetre: 0) == nil)
        let wide = try #require(FocalLengthValue(hundredthsOfAMillimetre: 1800))
        let long = try #require(FocalLengthValue(hundredthsOfAMillimetre: 14000))
        #expect(wide < long && long.millimetres == 140)
    }
}
