import Viewfinder

/// `viewfinder camera categories`: what the camera serves (stills, its files, video), and switching between them.
enum CameraCategoriesCommand: Command {
    static let spec = CommandSpec(
        name: "categories",
        abstract: "Show what the camera serves now (stills, files, video), and switch between them.",
        discussion: """
            Prints the command categories the camera offers and those it serves now. Most cameras serve all they \
            offer at once; Fujifilm bodies over WiFi serve remote shooting or their files, one at a time. With \
            --switch the camera is first made to serve stills (shooting), files (listing and downloading) or video \
            (recording); a category the camera does not offer, or a switch it refuses, ends with exit code 76.
            """,
        options: CameraTarget.options + [
            .value("switch", "stills|files|video", help: "Make the camera serve this category first."),
            .json,
        ],
        examples: [
            Example(commandLine: "camera categories", comment: "What the camera offers and serves now."),
            Example(
                commandLine: "camera categories --family fujifilm --switch files",
                comment: "Makes a Fujifilm serve its files."),
        ]
    )

    /// The names `--switch` takes, with their categories.
    static let names: [(String, CameraCommandCategories)] = [
        ("stills", .stillsShooting), ("files", .fileAccess), ("video", .videoRecording),
    ]

    private struct Report: Encodable {
        var supported: [String]
        var current: [String]
        var switched: String?
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let target: CameraCommandCategories?
        if let name = arguments.value("switch") {
            guard let category = names.first(where: { $0.0 == name.lowercased() })?.1 else {
                throw UsageError(
                    "--switch takes stills, files or video, not '\(name)'", commandPath: arguments.commandPath)
            }
            target = category
        } else {
            target = nil
        }
        let report = try await CameraTarget(arguments).withConnectedCamera { camera in
            if let target {
                try await camera.switchToCommandCategories(target)
            }
            return Report(
                supported: Self.names(of: camera.supportedCommandCategories),
                current: Self.names(of: camera.currentCommandCategories), switched: target.map(Self.names(of:))?.first)
        }
        if arguments.flag("json") {
            try Console.printJSON(report)
            return
        }
        if let switched = report.switched {
            Console.print("Switched to \(switched)")
        }
        Console.print("offers: \(report.supported.isEmpty ? "none" : report.supported.joined(separator: ", "))")
        Console.print("serves: \(report.current.isEmpty ? "none" : report.current.joined(separator: ", "))")
    }

    /// The `--switch` names of `categories`, in order.
    private static func names(of categories: CameraCommandCategories) -> [String] {
        names.filter { categories.contains($0.1) }.map(\.0)
    }
}
