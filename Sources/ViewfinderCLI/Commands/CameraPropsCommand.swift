import Viewfinder

/// `viewfinder camera props`: the camera's properties with their values and the values they can be set to.
enum CameraPropsCommand: Command {
    static let spec = CommandSpec(
        name: "props",
        abstract: "List the camera's properties with their current and settable values.",
        discussion: """
            Lists the properties the camera reports, by the names 'get', 'set' and 'watch' take. Which values can be \
            set depends on the camera's state: in aperture priority, for example, the camera sets the shutter speed \
            and offers no values for it. SET BY says how: from a list, from a numeric range, or in steps, where the \
            camera moves the value up or down without listing its values ('set NAME up'). With --all, properties \
            the camera does not report are listed too. Properties are grouped by category: exposure settings \
            (ISO, shutter speed, aperture, compensation), capture settings (exposure mode, focus, drive), imaging \
            settings (white balance, image quality, metering), configuration settings, information the camera \
            reports (battery, shots available), video format and live view zoom; --category lists one category.
            """,
        options: CameraTarget.options + [
            .flag("all", help: "Also list properties the camera does not report."),
            .value(
                "category", "CATEGORY",
                help: "List only the properties of this category: "
                    + CameraPropertyCategory.allCases.map(\.commandLineName).joined(separator: ", ") + "."),
            .json,
        ],
        examples: [
            Example(commandLine: "camera props", comment: "A table of the camera's properties."),
            Example(commandLine: "camera props --host 127.0.0.1:15740 --json", comment: "The same as JSON."),
            Example(
                commandLine: "camera props --category exposure-setting",
                comment: "Only ISO, shutter speed, aperture and exposure compensation."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let showsAll = arguments.flag("all")
        let category = try arguments.value("category").map {
            try CameraPropertyCategory.named($0, commandPath: arguments.commandPath)
        }
        let listed = CameraProperties.grouped.filter { category == nil || $0.category == category }
        let readings = try await CameraTarget(arguments).withConnectedCamera { camera in
            listed.map { $0.reading(of: camera) }.filter { showsAll || $0.isReported }
        }
        if arguments.flag("json") {
            try Console.printJSON(readings)
            return
        }
        Console.printTable(
            header: ["NAME", "PROPERTY", "VALUE", "SET BY", "SETTABLE VALUES", "CATEGORY"],
            rows: readings.map {
                [
                    $0.name, $0.displayName, $0.value ?? "-", $0.settableKind, $0.settableSummary,
                    CameraPropertyCategory(rawValue: $0.category)?.commandLineName ?? $0.category,
                ]
            })
    }
}
