import ViewfinderCore

/// What Nikon adds to the standard properties' values: codes in the `0x8010` range, and the bindings that read
/// them.
enum NikonPropertyValues {
    /// The standard properties with Nikon's value tables.
    static let bindings: [PTPPropertyBinding] = [
        .binding(.iso, .exposureIndex, decode: StandardPropertyValues.iso),
        .binding(.shutterSpeed, .exposureTime) { StandardPropertyValues.shutterSpeed($0, names: shutterSpeedNames) },
        .binding(.aperture, .fNumber, decode: StandardPropertyValues.aperture),
        .binding(.exposureCompensation, .exposureBiasCompensation, decode: StandardPropertyValues.exposureCompensation),
        .binding(.whiteBalance, .whiteBalance) { StandardPropertyValues.whiteBalance($0, vendor: whiteBalance) },
        .binding(.focusMode, .focusMode) { StandardPropertyValues.focusMode($0, vendor: focusMode) },
        .binding(.autoExposureMode, .exposureProgramMode) {
            StandardPropertyValues.exposureProgram($0, vendor: exposureProgram)
        },
        .binding(.batteryLevel, .batteryLevel, decode: StandardPropertyValues.batteryLevel),
        .binding(.driveMode, .stillCaptureMode) { StandardPropertyValues.driveMode($0, vendor: driveMode) },
        .binding(.meteringMode, .exposureMeteringMode, decode: StandardPropertyValues.meteringMode),
        .binding(.focalLength, .focalLength, decode: StandardPropertyValues.focalLength),
        .binding(.imageQuality, .compressionSetting) { StandardPropertyValues.vendorDefined($0, imageQuality) },
        .binding(.lensName, .nikonLensID, decode: lensName),
        .binding(.videoRecordingFormat, .nikonMovieScreenSize) {
            StandardPropertyValues.vendorDefined($0, videoRecordingFormat)
        },
        .binding(.lightMeterReading, .nikonLightMeter) {
            TypedCameraPropertyValue(LightMeterReadingValue(twelfthsOfAStop: Int($0)), rawValue: .integer($0))
        },
    ]

    /// The lenses libgphoto2 names by LensID; other numbers, and 0 for a lens the camera does not know, are unknown.
    static func lensName(_ raw: Int64) -> TypedCameraPropertyValue<LensNameValue> {
        let names: [Int64: String] = [
            38: "Sigma 70-300mm 1:4-5.6 D APO Macro", 83: "AF Nikkor 80-200mm 1:2.8 D ED",
            118: "AF Nikkor 50mm 1:1.8 D", 127: "AF-S Nikkor 18-70mm 1:3.5-4.5G ED DX",
            139: "AF-S Nikkor 18-200mm 1:3.5-5.6 GED DX VR", 147: "AF-S Nikkor 24-70mm 1:2.8G ED DX",
            154: "AF-S Nikkor 18-55mm 1:3.5-F5.6G DX VR", 159: "AF-S Nikkor 35mm 1:1.8G DX",
            248: "Sigma EX 30mm 1:1.4 DC HSM",
        ]
        guard let lens = names[raw].flatMap(LensNameValue.init) else { return .unknown(.integer(raw)) }
        return TypedCameraPropertyValue(lens, rawValue: .integer(raw))
    }

    /// CompressionSetting as libgphoto2's table for Nikon bodies without one of their own: JPEG basic, normal and
    /// fine, NEF alone and NEF with each JPEG.
    static let imageQuality = VendorValues<ImageQualityValue>(meanings: [
        0: .jpegBasic, 1: .jpegNormal, 2: .jpegFine, 4: .raw, 5: .rawAndJPEGBasic, 6: .rawAndJPEGNormal,
        7: .rawAndJPEGFine,
    ])

    /// MovScreenSize as libgphoto2's table for Nikon bodies without one of their own.
    static let videoRecordingFormat = VendorValues<VideoRecordingFormatValue>(meanings: [
        0: VideoRecordingFormatValue(frameSize: Dimensions(width: 320, height: 216)),
        1: VideoRecordingFormatValue(frameSize: Dimensions(width: 640, height: 424)),
        2: VideoRecordingFormatValue(frameSize: Dimensions(width: 1280, height: 720)),
    ])

    /// Time exposures, which Nikon writes as `0xFFFFFFFD`.
    static let shutterSpeedNames: [Int64: String] = [0xFFFF_FFFD: "Time"]

    /// Cloudy, shade, colour temperature and preset.
    static let whiteBalance = VendorValues<WhiteBalanceValue>(meanings: [
        0x8010: .cloudy, 0x8011: .shade, 0x8012: .colorTemperature, 0x8013: .custom,
    ])

    /// AF-S, AF-C, AF-A and AF-F.
    static let focusMode = VendorValues<FocusModeValue>(
        meanings: [0x8010: .singleAutoFocus, 0x8011: .continuousAutoFocus, 0x8012: .automaticAutoFocus],
        names: [0x8013: "AF-F"])

    /// The automatic mode and the scene modes.
    static let exposureProgram: VendorValues<AutoExposureModeValue> = {
        let scenes = [
            "Portrait", "Landscape", "Close-Up", "Sports", "Night Portrait", "Night Landscape", "Child",
            "Auto (No Flash)", "Effects",
        ]
        var names: [Int64: String] = [:]
        for (offset, scene) in scenes.enumerated() {
            names[0x8011 + Int64(offset)] = scene
        }
        // The user settings of the mode dial, as a Z 6 lists them.
        for user in 0..<3 {
            names[0x8050 + Int64(user)] = "U\(user + 1)"
        }
        return VendorValues(meanings: [0x8010: .fullyAutomatic], names: names)
    }()

    /// The standard burst is Nikon's high rate; continuous low, self-timer, mirror-up and quiet release.
    static let driveMode = VendorValues<DriveModeValue>(
        meanings: [2: .continuousHigh, 0x8010: .continuousLow, 0x8011: .selfTimer],
        names: [0x8012: "Mirror Up", 0x8016: "Quiet Release"])
}
