import Viewfinder

/// The properties the camera commands know, and how their values are written.
enum CameraProperties {
    /// Every property, in the order `props` lists them.
    static let all: [any CommandLineProperty] = [
        TypedCommandLineProperty(
            identifier: .autoExposureMode, name: "mode", aliases: ["exposure-mode", "autoExposureMode", "program"],
            valueSyntax: "auto, P, A, S, M, B", parse: PropertyValueSyntax.exposureMode),
        TypedCommandLineProperty(
            identifier: .iso, name: "iso", aliases: [], valueSyntax: "800, ISO 800, auto",
            parse: PropertyValueSyntax.iso),
        TypedCommandLineProperty(
            identifier: .shutterSpeed, name: "shutter", aliases: ["shutter-speed", "shutterSpeed", "exposure-time"],
            valueSyntax: "1/250, 0.5, 2.5\", 30s, bulb", parse: PropertyValueSyntax.shutterSpeed),
        TypedCommandLineProperty(
            identifier: .aperture, name: "aperture", aliases: ["f-number", "fnumber"], valueSyntax: "f/8, f8, 5.6",
            parse: PropertyValueSyntax.aperture),
        TypedCommandLineProperty(
            identifier: .exposureCompensation, name: "ev",
            aliases: ["exposure-compensation", "exposureCompensation", "compensation"],
            valueSyntax: "+1/3, -2/3, +1 1/3, 0, -1.5", parse: PropertyValueSyntax.exposureCompensation),
        TypedCommandLineProperty(
            identifier: .whiteBalance, name: "white-balance", aliases: ["wb", "whiteBalance"],
            valueSyntax: "auto, daylight, cloudy, shade, tungsten, fluorescent, flash",
            parse: PropertyValueSyntax.named(WhiteBalanceValue.self)),
        TypedCommandLineProperty(
            identifier: .focusMode, name: "focus", aliases: ["focus-mode", "focusMode"],
            valueSyntax: "MF, AF, AF-S, AF-C, AF-A, macro", parse: PropertyValueSyntax.focusMode),
        TypedCommandLineProperty(
            identifier: .driveMode, name: "drive", aliases: ["drive-mode", "driveMode"],
            valueSyntax: "single, continuous, continuous-high, self-timer",
            parse: PropertyValueSyntax.named(DriveModeValue.self)),
        TypedCommandLineProperty(
            identifier: .meteringMode, name: "metering", aliases: ["metering-mode", "meteringMode"],
            valueSyntax: "average, center-weighted, multi-spot, evaluative, spot, partial",
            parse: PropertyValueSyntax.named(MeteringModeValue.self)),
        TypedCommandLineProperty(
            identifier: .imageDestination, name: "destination", aliases: ["image-destination", "imageDestination"],
            valueSyntax: "camera, computer", parse: PropertyValueSyntax.imageDestination),
        TypedCommandLineProperty(
            identifier: .imageQuality, name: "quality", aliases: ["image-quality", "imageQuality"],
            valueSyntax: "jpeg-basic, jpeg-normal, jpeg-fine, raw, raw+jpeg-basic, raw+jpeg-normal, raw+jpeg-fine",
            parse: PropertyValueSyntax.named(ImageQualityValue.self)),
        TypedCommandLineProperty(
            identifier: .colorTone, name: "picture-style", aliases: ["color-tone", "colorTone", "pictureStyle"],
            valueSyntax: "standard, portrait, landscape, neutral, faithful, monochrome, auto, fine-detail",
            parse: PropertyValueSyntax.named(ColorToneValue.self)),
        TypedCommandLineProperty(
            identifier: .mirrorLockupEnabled, name: "mirror-lockup", aliases: ["mirrorLockupEnabled"],
            valueSyntax: "on, off", parse: PropertyValueSyntax.named(OnOffValue.self)),
        TypedCommandLineProperty(
            identifier: .depthOfFieldPreview, name: "dof-preview",
            aliases: ["depth-of-field-preview", "depthOfFieldPreview"],
            valueSyntax: "on, off", parse: PropertyValueSyntax.named(OnOffValue.self)),
        TypedCommandLineProperty(
            identifier: .videoRecordingFormat, name: "video-format", aliases: ["videoRecordingFormat", "movie-size"],
            valueSyntax: "1280x720, 640x424", parse: PropertyValueSyntax.videoRecordingFormat),
        TypedCommandLineProperty(
            identifier: .focalLength, name: "focal-length", aliases: ["focalLength"], valueSyntax: "read-only",
            parse: { _ in nil }),
        TypedCommandLineProperty(
            identifier: .lensName, name: "lens", aliases: ["lens-name", "lensName"], valueSyntax: "read-only",
            parse: { _ in nil }),
        TypedCommandLineProperty(
            identifier: .lightMeterReading, name: "light-meter", aliases: ["lightMeterReading", "meter-reading"],
            valueSyntax: "read-only", parse: { _ in nil }),
        TypedCommandLineProperty(
            identifier: .batteryLevel, name: "battery", aliases: ["batteryLevel"], valueSyntax: "read-only",
            parse: { _ in nil }),
        TypedCommandLineProperty(
            identifier: .shotsAvailable, name: "shots", aliases: ["shots-available", "shotsAvailable"],
            valueSyntax: "read-only", parse: { _ in nil }),
    ]

    /// Every property, grouped by category in the order of ``CameraPropertyCategory/allCases``, each group in the
    /// order of ``all``.
    static var grouped: [any CommandLineProperty] {
        CameraPropertyCategory.allCases.flatMap { category in all.filter { $0.category == category } }
    }

    /// The property a command line names, by its name or an alias, in any case.
    ///
    /// - Throws: ``UsageError`` listing the names when none matches.
    static func named(_ name: String, commandPath: String) throws -> any CommandLineProperty {
        let key = name.lowercased()
        for property in all where ([property.name] + property.aliases).contains(where: { $0.lowercased() == key }) {
            return property
        }
        throw UsageError(
            "there is no camera property '\(name)'; the properties are \(all.map(\.name).joined(separator: ", "))",
            commandPath: commandPath)
    }

    /// The names and value syntax of every property, for help.
    static var help: String {
        all.map { "\($0.name) (\($0.valueSyntax))" }.joined(separator: ", ")
    }
}
