import Testing
import ViewfinderCore
import ViewfinderReactive
import ViewfinderSimulator
import ViewfinderTestSupport

@testable import ViewfinderPTP
@testable import ViewfinderPTPIP

extension SimulatedCameraTests {
    /// Typed properties of the simulated camera, read and set over PTP/IP.
    @Suite(.timeLimit(.minutes(3))) struct PTPIPCameraPropertyTests {
        @Test func propertiesShowTheCameraValuesWithTheirMeaning() async throws {
            try await CameraHarness.run(.init(identity: .nikon, sampleImageCount: 1)) { harness in
                let camera = harness.camera
                #expect(camera.property(for: .iso).commonValue == .iso100)
                #expect(camera.property(for: .iso).currentValue?.rawValue == .integer(100))
                #expect(camera.property(for: .shutterSpeed).currentValue?.localizedDisplayValue == "1/125")
                #expect(camera.property(for: .aperture).currentValue?.localizedDisplayValue == "f/5.6")
                #expect(camera.property(for: .exposureCompensation).commonValue == .zero)
                #expect(camera.property(for: .whiteBalance).commonValue == .automatic)
                #expect(camera.property(for: .focusMode).commonValue == .autoFocus)
                #expect(camera.property(for: .autoExposureMode).commonValue == .manual)
                #expect(camera.property(for: .batteryLevel).commonValue == .percent(100))
                #expect(camera.property(for: .driveMode).commonValue == .single)
                let shots = try #require(camera.property(for: .shotsAvailable).commonValue)
                #expect(shots.count > 1000)

                let isos = camera.property(for: .iso).validSettableValues
                #expect(isos.count == 26)
                #expect(isos.first?.localizedDisplayValue == "ISO 100")
                #expect(isos.last?.commonValue == .automatic)
                #expect(
                    camera.property(for: .whiteBalance).validSettableValues.compactMap(\.commonValue) == [
                        .automatic, .daylight, .fluorescent, .tungsten, .flash, .custom,
                    ])
                #expect(
                    camera.property(for: .driveMode).validSettableValues.map(\.localizedDisplayValue) == [
                        "Single", "Continuous High", "Time-Lapse", "Continuous Low", "Self-Timer",
                    ])
                // Read-only properties offer nothing to set.
                #expect(camera.property(for: .batteryLevel).validSettableValues.isEmpty)
                #expect(camera.property(for: .shotsAvailable).valueSetType == .none)
                // The property is the same object each time.
                #expect(camera.property(for: .iso) === camera.property(for: .iso))
            }
        }

        /// The properties the simulated Nikon and Canon report are known, each in its category; populated ones have
        /// a value, and none is known once the camera is gone.
        @Test func knownPropertiesAndPopulatedPropertiesOfACategory() async throws {
            for identity in [CameraSimulator.Identity.nikon, .canon] {
                let camera = try await CameraHarness.run(.init(identity: identity, sampleImageCount: 0)) { harness in
                    let camera = harness.camera
                    let known = camera.knownPropertyIdentifiers
                    for identifier in [
                        AnyCameraPropertyIdentifier(.iso), AnyCameraPropertyIdentifier(.shutterSpeed),
                        AnyCameraPropertyIdentifier(.aperture), AnyCameraPropertyIdentifier(.batteryLevel),
                        AnyCameraPropertyIdentifier(.shotsAvailable), AnyCameraPropertyIdentifier(.autoExposureMode),
                    ] {
                        #expect(known.contains(identifier), "\(identifier) on the \(identity)")
                    }
                    let exposure = camera.populatedProperties(in: .exposureSetting)
                    let exposureNames = Set(exposure.map(\.anyIdentifier.name))
                    #expect(exposureNames.isSuperset(of: ["iso", "shutterSpeed", "aperture"]), "\(identity)")
                    #expect(exposure.allSatisfy { $0.category == .exposureSetting && $0.localizedDisplayValue != nil })
                    let iso = exposure.first { $0.anyIdentifier == AnyCameraPropertyIdentifier(.iso) }
                    #expect(
                        iso?.localizedDisplayValue == camera.property(for: .iso).currentValue?.localizedDisplayValue)
                    let information = camera.populatedProperties(in: .information)
                    // The simulated Nikon reports its lens's focal length and name and its light meter too, the
                    // simulated Canon its lens's name.
                    let expected =
                        identity == .nikon
                        ? ["batteryLevel", "focalLength", "lensName", "lightMeterReading", "shotsAvailable"]
                        : ["batteryLevel", "lensName", "shotsAvailable"]
                    #expect(information.map(\.anyIdentifier.name) == expected, "\(identity)")
                    #expect(!exposureNames.contains("batteryLevel"))
                    return camera
                }
                try await waitUntil("the properties to be forgotten after disconnecting (\(identity))") {
                    camera.knownPropertyIdentifiers.isEmpty
                }
                #expect(camera.populatedProperties(in: .exposureSetting).isEmpty)
            }
        }

        /// The Nikon's metering mode (ExposureMeteringMode) and focal length (FocalLength, read-only), and the Canon's
        /// metering mode (EOS MeteringMode) and where its pictures go (EOS CaptureDestination), read and set.
        @Test func meteringModeFocalLengthAndImageDestination() async throws {
            try await CameraHarness.run(.init(identity: .nikon, sampleImageCount: 0)) { harness in
                let camera = harness.camera
                let metering = camera.property(for: .meteringMode)
                #expect(metering.commonValue == .multiSpot)
                #expect(metering.validSettableValues.compactMap(\.commonValue) == [.centerWeighted, .multiSpot, .spot])
                try await metering.setValue(.spot)
                #expect(harness.simulator.dialValue(.exposureMeteringMode) == 4)
                let focalLength = camera.property(for: .focalLength)
                #expect(focalLength.commonValue?.hundredthsOfAMillimetre == 3500)
                #expect(focalLength.currentValue?.localizedDisplayValue == "35 mm")
                #expect(focalLength.valueSetType == .none)
                #expect(camera.property(for: .imageDestination).currentValue == nil)
                #expect(camera.populatedProperties(in: .imagingSetting).contains { $0 === metering })
            }
            try await CameraHarness.run(.init(identity: .canon, sampleImageCount: 0)) { harness in
                let camera = harness.camera
                let metering = camera.property(for: .meteringMode)
                #expect(metering.commonValue == .evaluative)
                #expect(
                    metering.validSettableValues.compactMap(\.commonValue) == [.centerWeighted, .evaluative, .spot])
                try await metering.setValue(.spot)
                #expect(harness.simulator.dialValue(.exposureMeteringMode) == 4)
                let destination = camera.property(for: .imageDestination)
                #expect(destination.commonValue == .camera)
                #expect(destination.validSettableValues.compactMap(\.commonValue) == [.camera, .connectedHost])
                try await destination.setValue(.connectedHost)
                #expect(harness.simulator.canonEOSDestinations.pictures == 4)
                #expect(camera.property(for: .focalLength).currentValue == nil)
                #expect(camera.knownPropertyIdentifiers.contains(AnyCameraPropertyIdentifier(.imageDestination)))
            }
        }

        /// The Nikon's image quality (CompressionSetting), and the Canon's picture style (EOS PictureStyle), mirror
        /// lockup (EOS MirrorUpSetting) and depth-of-field preview (EOS DepthOfFieldPreview), read and set; each camera
        /// lacks the others'.
        @Test func imageQualityPictureStyleMirrorLockupAndDepthOfFieldPreview() async throws {
            try await CameraHarness.run(.init(identity: .nikon, sampleImageCount: 0)) { harness in
                let camera = harness.camera
                let quality = camera.property(for: .imageQuality)
                #expect(quality.commonValue == .jpegFine)
                #expect(
                    quality.validSettableValues.compactMap(\.commonValue) == [
                        .jpegBasic, .jpegNormal, .jpegFine, .raw, .rawAndJPEGBasic, .rawAndJPEGNormal, .rawAndJPEGFine,
                    ])
                try await quality.setValue(.rawAndJPEGFine)
                #expect(harness.simulator.dialValue(.compressionSetting) == 7)
                #expect(quality.currentValue?.localizedDisplayValue == "RAW + JPEG Fine")
                #expect(camera.populatedProperties(in: .imagingSetting).contains { $0 === quality })
                #expect(camera.property(for: .colorTone).currentValue == nil)
                #expect(camera.property(for: .mirrorLockupEnabled).currentValue == nil)
            }
            try await CameraHarness.run(.init(identity: .canon, sampleImageCount: 0)) { harness in
                let camera = harness.camera
                let style = camera.property(for: .colorTone)
                #expect(style.commonValue == .standard)
                #expect(
                    style.validSettableValues.map(\.localizedDisplayValue) == [
                        "Standard", "Portrait", "Landscape", "Neutral", "Faithful", "Monochrome", "Auto", "Fine Detail",
                        "User Defined 1",
                    ])
                try await style.setValue(.landscape)
                #expect(harness.simulator.canonEOSSetting(.canonEOSPictureStyle) == 0x83)
                let mirror = camera.property(for: .mirrorLockupEnabled)
                #expect(mirror.commonValue == .off)
                try await mirror.setValue(.on)
                #expect(harness.simulator.canonEOSSetting(.canonEOSMirrorUpSetting) == 1)
                #expect(mirror.commonValue == .on)
                let preview = camera.property(for: .depthOfFieldPreview)
                #expect(preview.validSettableValues.compactMap(\.commonValue) == [.off, .on])
                try await preview.setValue(.on)
                #expect(harness.simulator.canonEOSSetting(.canonEOSDepthOfFieldPreview) == 1)
                try await preview.setValue(.off)
                #expect(harness.simulator.canonEOSSetting(.canonEOSDepthOfFieldPreview) == 0)
                let capture = camera.populatedProperties(in: .captureSetting)
                #expect(capture.contains { $0 === mirror } && capture.contains { $0 === preview })
            }
        }

        /// The Canon's image quality is EOS ImageFormat, packed as libgphoto2 reads it: large JPEGs and raw files by
        /// their common meaning, other sizes by name, set packed the same way.
        @Test func canonImageFormat() async throws {
            try await CameraHarness.run(.init(identity: .canon, sampleImageCount: 0)) { harness in
                let quality = harness.camera.property(for: .imageQuality)
                #expect(quality.commonValue == .jpegFine)
                #expect(
                    quality.validSettableValues.map(\.localizedDisplayValue) == [
                        "JPEG Fine", "JPEG Normal", "Medium Fine JPEG", "Small Fine JPEG", "RAW", "RAW + JPEG Fine",
                    ])
                try await quality.setValue(.rawAndJPEGFine)
                #expect(harness.simulator.canonEOSSetting(.canonEOSImageFormat) == 0x0C03)
                #expect(quality.commonValue == .rawAndJPEGFine)
                let medium = try #require(quality.validSettableValues.first { $0.rawValue == .integer(0x1300) })
                try await quality.setValue(medium)
                #expect(harness.simulator.canonEOSSetting(.canonEOSImageFormat) == 0x1300)
                #expect(quality.currentValue?.localizedDisplayValue == "Medium Fine JPEG")
                #expect(quality.commonValue == nil)
            }
        }

        /// The Canon names its lens (EOS LensName, text in its events) as a read-only piece of information.
        @Test func canonLensName() async throws {
            try await CameraHarness.run(.init(identity: .canon, sampleImageCount: 0)) { harness in
                let lens = harness.camera.property(for: .lensName)
                #expect(lens.commonValue?.name == "EF35mm f/2 IS USM")
                #expect(lens.currentValue?.localizedDisplayValue == "EF35mm f/2 IS USM")
                #expect(lens.validSettableValues.isEmpty)
                #expect(harness.camera.populatedProperties(in: .information).contains { $0 === lens })
                await #expect(throws: ViewfinderError.self) { try await lens.setValue(LensNameValue("EF50mm")!) }
            }
        }

        /// The Nikon names its lens by LensID, in libgphoto2's table, and reports its exposure indicator (LightMeter, in
        /// twelfths of a stop), both read-only.
        @Test func nikonLensNameAndLightMeter() async throws {
            try await CameraHarness.run(.init(identity: .nikon, sampleImageCount: 0)) { harness in
                let camera = harness.camera
                let lens = camera.property(for: .lensName)
                #expect(lens.commonValue?.name == "AF-S Nikkor 35mm 1:1.8G DX")
                #expect(lens.validSettableValues.isEmpty)
                let meter = camera.property(for: .lightMeterReading)
                #expect(meter.commonValue == LightMeterReadingValue(twelfthsOfAStop: -4))
                #expect(meter.currentValue?.localizedDisplayValue == "-0.3 EV")
                #expect(meter.validSettableValues.isEmpty)
                await #expect(throws: ViewfinderError.self) {
                    try await meter.setValue(LightMeterReadingValue(twelfthsOfAStop: 0))
                }
                let information = Set(camera.populatedProperties(in: .information).map(\.anyIdentifier.name))
                #expect(information.isSuperset(of: ["lensName", "lightMeterReading"]))
            }
            #expect(NikonPropertyValues.lensName(0).isUnknown)
            #expect(NikonPropertyValues.lensName(160).isUnknown)
            #expect(LightMeterReadingValue(twelfthsOfAStop: 0).localizedDisplayValue == "0.0 EV")
            #expect(LightMeterReadingValue(twelfthsOfAStop: -8).localizedDisplayValue == "-0.7 EV")
            #expect(LightMeterReadingValue(twelfthsOfAStop: 14).localizedDisplayValue == "+1.2 EV")
        }

        /// The Nikon's movie frame size (MovScreenSize, libgphoto2's table for bodies without their own), read and set;
        /// other codes are unknown.
        @Test func nikonVideoRecordingFormat() async throws {
            try await CameraHarness.run(.init(identity: .nikon, sampleImageCount: 0)) { harness in
                let format = harness.camera.property(for: .videoRecordingFormat)
                #expect(format.currentValue?.localizedDisplayValue == "1280x720")
                #expect(format.validSettableValues.map(\.localizedDisplayValue) == ["320x216", "640x424", "1280x720"])
                try await format.setValue(VideoRecordingFormatValue(frameSize: Dimensions(width: 640, height: 424)))
                #expect(harness.simulator.dialValue(.nikonMovieScreenSize) == 1)
                #expect(format.commonValue?.frameSize == Dimensions(width: 640, height: 424))
                #expect(harness.camera.populatedProperties(in: .videoFormat).contains { $0 === format })
            }
            #expect(StandardPropertyValues.vendorDefined(3, NikonPropertyValues.videoRecordingFormat).isUnknown)
            #expect(
                VideoRecordingFormatValue(frameSize: Dimensions(width: 1920, height: 1080), framesPerSecond: 30)
                    .localizedDisplayValue == "1920x1080 30p")
        }

        /// A dial turned on the camera itself reaches the client through the camera's event, as on a real camera.
        @Test func aDialTurnedOnTheCameraReachesTheClient() async throws {
            for identity in [CameraSimulator.Identity.nikon, .canon] {
                try await CameraHarness.run(.init(identity: identity, sampleImageCount: 0)) { harness in
                    let iso = harness.camera.property(for: .iso)
                    try harness.simulator.turnDial(.exposureIndex, to: 1600)
                    #expect(harness.simulator.dialValue(.exposureIndex) == 1600)
                    try await waitUntil("ISO 1600 at the client (\(identity))") {
                        iso.currentValue?.localizedDisplayValue == "ISO 1600"
                    }
                    #expect(throws: ViewfinderError.self, "a value the camera does not take") {
                        try harness.simulator.turnDial(.exposureIndex, to: 1234)
                    }
                    #expect(harness.simulator.dialValue(.exposureIndex) == 1600)
                }
            }
        }

        /// A settable property without a form takes any value of its type: a numeric range, not a list of one.
        @Test func aFormlessSettablePropertyIsARangeOfItsType() async throws {
            var configuration = CameraSimulator.Configuration()
            configuration.formlessProperties = [.exposureBiasCompensation]
            try await CameraHarness.run(configuration) { harness in
                // Compensation applies, and can be set, in the automatic programs.
                try await harness.camera.property(for: .autoExposureMode).setValue(.program)
                let compensation = harness.camera.property(for: .exposureCompensation)
                try await waitUntil("compensation to be settable") {
                    compensation.valueSetType != .none
                }
                let values = compensation.validSettableValues
                #expect(values.valueSetType == .numericRange)
                #expect(values.count == 65536)
                #expect(values.first?.rawValue == .integer(-32768))
                #expect(values.last?.rawValue == .integer(32767))
                // Any value of the type is the camera's to take, such as 1001 thousandths, which no list of thirds
                // offers; it means +1 stop.
                let value = values[32768 + 1001]
                #expect(value.commonValue == ExposureCompensationValue(thousandthsOfAStop: 1000))
                try await compensation.setValue(value)
                #expect(
                    try await harness.session.propertyValue(.exposureBiasCompensation, of: .int16) == .int16(1001))
                #expect(try await compensation.increment().rawValue == .integer(1002))
                #expect(
                    try await harness.session.propertyValue(.exposureBiasCompensation, of: .int16) == .int16(1002))
                // The standard dialect has no property the camera steps by itself.
                let step = await #expect(throws: ViewfinderError.self) {
                    try await harness.camera.stepValue(forPropertyNamed: "exposureCompensation", by: 1)
                }
                #expect(step?.code == .notAvailable)
            }
        }

        @Test func aGenericCameraHasNoDriveMode() async throws {
            try await CameraHarness.run { harness in
                #expect(harness.camera.property(for: .driveMode).currentValue == nil)
                #expect(harness.camera.property(for: .iso).currentValue != nil)
            }
        }

        @Test func settingAValueSendsItAndWaitsForTheCameraToShowIt() async throws {
            try await CameraHarness.run { harness in
                let iso = harness.camera.property(for: .iso)
                let changes = Observed<CameraPropertyChangeType>()
                let token = iso.addObserver { _, change in changes.append(change) }
                try await iso.setValue(.iso800)
                #expect(iso.commonValue == .iso800)
                #expect(iso.pendingValue == nil)
                // Observers hear of the change on the thread already delivering, a moment after setValue returned.
                try await waitUntil("the value change") { changes.all.contains { $0.contains(.value) } }
                // The camera holds the new value.
                let onCamera = try await harness.session.propertyValue(.exposureIndex, of: .uint16)
                #expect(onCamera == .uint16(800))

                try await harness.camera.property(for: .shutterSpeed).setValue(ShutterSpeedValue(seconds: 1.0 / 1000)!)
                #expect(try await harness.session.propertyValue(.exposureTime, of: .uint32) == .uint32(10))
                let next = try await harness.camera.property(for: .aperture).increment()
                #expect(next.localizedDisplayValue == "f/6.3")
                #expect(try await harness.session.propertyValue(.fNumber, of: .uint16) == .uint16(630))
                withExtendedLifetime(token) {}
            }
        }

        @Test func aValueTheCameraRefusesIsAnInvalidPropertyValue() async throws {
            try await CameraHarness.run { harness in
                let error = await #expect(throws: ViewfinderError.self) {
                    try await harness.camera.setRawValue(.integer(12345), forPropertyNamed: "iso")
                }
                #expect(error?.code == .invalidPropertyValue)
                #expect(error?.responseCode == PTPResponseCode.invalidDevicePropValue.rawValue)
                // A value of the wrong width never reaches the camera.
                let tooWide = await #expect(throws: ViewfinderError.self) {
                    try await harness.camera.setRawValue(.integer(1 << 40), forPropertyNamed: "iso")
                }
                #expect(tooWide?.code == .invalidPropertyValue)
                #expect(harness.camera.property(for: .iso).commonValue == .iso100)
            }
        }

        @Test func changingTheExposureModeChangesWhatCanBeSet() async throws {
            try await CameraHarness.run { harness in
                let camera = harness.camera
                let shutter = camera.property(for: .shutterSpeed)
                let compensation = camera.property(for: .exposureCompensation)
                #expect(!shutter.validSettableValues.isEmpty)
                #expect(compensation.validSettableValues.isEmpty)
                let settable = Observed<Int>()
                let cancellable = camera.settableValuesPublisher(for: .shutterSpeed).sink { settable.append($0.count) }

                try await camera.property(for: .autoExposureMode).setValue(.aperturePriority)
                try await waitUntil("the shutter speed to become the camera's choice") {
                    shutter.validSettableValues.isEmpty && !compensation.validSettableValues.isEmpty
                }
                #expect(settable.all.first == 53)
                #expect(settable.all.last == 0)
                // In aperture priority the camera sets the shutter speed.
                let sixtieth = TypedCameraPropertyValue(ShutterSpeedValue(seconds: 1.0 / 60)!, rawValue: .integer(167))
                let refused = await #expect(throws: ViewfinderError.self) { try await shutter.setValue(sixtieth) }
                #expect(refused?.code == .notAvailable)
                let denied = await #expect(throws: ViewfinderError.self) {
                    try await camera.setRawValue(.integer(167), forPropertyNamed: "shutterSpeed")
                }
                #expect(denied?.code == .notAvailable)
                #expect(denied?.responseCode == PTPResponseCode.accessDenied.rawValue)
                // Opening the aperture makes the camera pick a faster shutter speed, which the property shows.
                let before = try #require(shutter.currentValue?.commonValue?.stopsFromOneSecond)
                try await camera.property(for: .aperture).setValue(ApertureValue(fNumber: 2.8)!)
                try await waitUntil("the camera to pick a faster shutter speed") {
                    (shutter.currentValue?.commonValue?.stopsFromOneSecond).map { $0 < before } ?? false
                }
                cancellable.cancel()
            }
        }

        @Test func valuesTheCameraChangesByItselfReachObservers() async throws {
            var simulator = CameraSimulator.Configuration(sampleImageCount: 0)
            simulator.batteryDrainInterval = .seconds(1)  // 95 drains to the 5 % floor: far more than needed
            try await CameraHarness.run(simulator) { harness in
                let battery = harness.camera.property(for: .batteryLevel)
                let levels = Observed<BatteryLevelValue?>()
                let token = battery.addObserver { property, change in
                    if change.contains(.value) { levels.append(property.commonValue) }
                }
                try await waitUntil("the battery to drain twice") { levels.all.count >= 2 }
                guard case .percent(let first) = levels.all[0], case .percent(let second) = levels.all[1] else {
                    Issue.record("the battery level is not a percentage: \(levels.all)")
                    return
                }
                #expect(first < 100)
                #expect(second == first - 1)
                withExtendedLifetime(token) {}
            }
        }

        @Test func valuesMapBothWaysForEveryKnownCode() {
            #expect(StandardPropertyValues.iso(0xFFFF).commonValue == .automatic)
            #expect(StandardPropertyValues.iso(0).localizedDisplayValue == "Unknown (0x0000)")
            #expect(StandardPropertyValues.iso(0).isUnknown)
            #expect(StandardPropertyValues.meteringMode(3).commonValue == .multiSpot)
            #expect(StandardPropertyValues.meteringMode(4).commonValue == .spot)
            #expect(StandardPropertyValues.meteringMode(0x8010).isUnknown)
            #expect(StandardPropertyValues.focalLength(3500).localizedDisplayValue == "35 mm")
            #expect(StandardPropertyValues.focalLength(0).isUnknown)
            #expect(StandardPropertyValues.vendorDefined(4, NikonPropertyValues.imageQuality).commonValue == .raw)
            #expect(StandardPropertyValues.vendorDefined(3, NikonPropertyValues.imageQuality).isUnknown)
            #expect(StandardPropertyValues.shutterSpeed(0xFFFF_FFFF).commonValue == .bulb)
            #expect(
                StandardPropertyValues.shutterSpeed(0xFFFF_FFFD, names: NikonPropertyValues.shutterSpeedNames)
                    .localizedDisplayValue == "Time")
            #expect(StandardPropertyValues.shutterSpeed(40).localizedDisplayValue == "1/250")
            #expect(StandardPropertyValues.aperture(1100).localizedDisplayValue == "f/11")
            #expect(StandardPropertyValues.exposureCompensation(-667).localizedDisplayValue == "−⅔")
            #expect(
                StandardPropertyValues.whiteBalance(0x8010, vendor: NikonPropertyValues.whiteBalance).commonValue
                    == .cloudy)
            #expect(StandardPropertyValues.whiteBalance(0x8010).commonValue == nil)
            #expect(StandardPropertyValues.whiteBalance(3).localizedDisplayValue == "One-Push Auto")
            #expect(
                StandardPropertyValues.focusMode(0x8011, vendor: NikonPropertyValues.focusMode).commonValue
                    == .continuousAutoFocus)
            #expect(
                StandardPropertyValues.focusMode(0x8013, vendor: NikonPropertyValues.focusMode).localizedDisplayValue
                    == "AF-F")
            #expect(
                StandardPropertyValues.exposureProgram(0x8010, vendor: NikonPropertyValues.exposureProgram).commonValue
                    == .fullyAutomatic)
            #expect(
                StandardPropertyValues.exposureProgram(0x8014, vendor: NikonPropertyValues.exposureProgram)
                    .localizedDisplayValue == "Sports")
            #expect(
                StandardPropertyValues.exposureProgram(0x8014).localizedDisplayValue == "Unknown (0x8014)")
            #expect(StandardPropertyValues.batteryLevel(250).commonValue == .percent(100))
            #expect(StandardPropertyValues.driveMode(2).commonValue == .continuous)
            #expect(
                StandardPropertyValues.driveMode(2, vendor: NikonPropertyValues.driveMode).commonValue
                    == .continuousHigh)
            // Every value keeps the camera's integer, so setting it sends that integer back.
            #expect(
                StandardPropertyValues.whiteBalance(0x8013, vendor: NikonPropertyValues.whiteBalance).rawValue
                    == .integer(0x8013))
        }
    }
}
