import Viewfinder

/// `viewfinder camera bracket`: pictures at exposure steps around the current shutter speed or compensation.
enum CameraBracketCommand: Command {
    static let spec = CommandSpec(
        name: "bracket",
        abstract: "Take pictures at exposure steps around the current setting, and put the setting back.",
        discussion: """
            Steps the shutter speed (in manual or shutter priority) or the exposure compensation (in the automatic \
            modes) --step stops apart around its current value, in the order cameras bracket in: the current \
            value, one step darker, one step brighter, and so on. Each value is the one the camera offers nearest \
            the step; a bracket wider than the camera's values is refused before any picture. The setting is put \
            back afterwards, also after a failure or Ctrl-C. With --download DIR the files are saved into DIR.
            """,
        options: CameraTarget.options + [
            .value("setting", "shutter|compensation", help: "Which setting to step.", default: "compensation"),
            .value("shots", "N", help: "How many pictures: 3, 5, 7… up to 15.", default: "3"),
            .value("step", "STOPS", help: "How far apart the exposures are, such as 1, 2/3 or 0.5.", default: "1"),
        ] + AutomationProgress.pictureOptions,
        examples: [
            Example(commandLine: "camera bracket", comment: "Three pictures at −1, 0 and +1 stop of compensation."),
            Example(
                commandLine: "camera bracket --setting shutter --shots 5 --step 2/3 --download hdr",
                comment: "Five shutter speeds 2/3 stop apart, saved in ./hdr."),
        ]
    )

    private static let settings: [String: ExposureBracket.Setting] = [
        "shutter": .shutterSpeed, "compensation": .exposureCompensation,
    ]

    static func run(_ arguments: ParsedArguments) async throws {
        let settingName = arguments.value("setting") ?? "compensation"
        guard let setting = settings[settingName] else {
            throw UsageError(
                "--setting takes shutter or compensation, not '\(settingName)'", commandPath: arguments.commandPath)
        }
        let shots = try arguments.integer("shots", default: 3, in: 3...15)
        guard shots % 2 == 1 else {
            throw UsageError(
                "--shots takes an odd number, so the current value is in the middle", commandPath: arguments.commandPath
            )
        }
        let stepText = arguments.value("step") ?? "1"
        guard let step = stops(stepText), step > .zero, step <= ExposureStops(wholeStops: 3) else {
            throw UsageError(
                "--step takes stops above 0 and up to 3, such as 1, 1/3, 2/3 or 0.5, not '\(stepText)'",
                commandPath: arguments.commandPath)
        }
        try await AutomationProgress.run(arguments) { camera, directory, fileTimeout in
            ExposureBracket(setting: setting, shots: shots, step: step, directory: directory, fileTimeout: fileTimeout)
                .start(on: camera)
        }
    }

    /// Stops written as a number (`1`, `0.5`) or a fraction (`1/3`, `2/3`), to the nearest sixth.
    static func stops(_ text: String) -> ExposureStops? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        switch parts.count {
        case 1:
            return Double(text).flatMap { ExposureStops(approximately: $0) }
        case 2:
            guard let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator > 0 else {
                return nil
            }
            return ExposureStops(approximately: numerator / denominator)
        default:
            return nil
        }
    }
}
