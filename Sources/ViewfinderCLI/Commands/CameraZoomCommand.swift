import Viewfinder

/// `viewfinder camera zoom`: magnifies the camera's live view, moves the magnified part, and shows the level.
enum CameraZoomCommand: Command {
    static let spec = CommandSpec(
        name: "zoom",
        abstract: "Magnify the camera's live view and move the magnified part.",
        discussion: """
            Turns live view on (cameras magnify only their live view), magnifies it --factor times around the area \
            the camera keeps for it, usually the autofocus area, or around --center, then shows the level the \
            camera is at and lets live view end. Canon EOS bodies offer 1 (the whole picture), 5 and 10; a factor \
            the camera does not offer is refused before anything is sent. Nikon bodies name their levels instead \
            (most 25%, 50%, 100% and 200%): give one with --level, and --factor 1 for the whole picture. --center \
            alone moves the magnified part without changing the level. --center takes X,Y in the live view \
            picture's coordinates, from its top-left corner. --show changes nothing and shows the level the camera \
            reports (Nikon bodies report theirs; Canon bodies do not, so it is known only once set).
            """,
        options: CameraTarget.options + [
            .value(
                "factor", "N", help: "How many times to magnify; 1 shows the whole picture (5 without --center).",
                default: "5"),
            .value("level", "NAME", help: "A level the camera names, such as a Nikon's 50%."),
            .value("center", "X,Y", help: "The point of the live view picture to magnify around."),
            .flag("show", help: "Show the level the camera reports, changing nothing."),
            .json,
        ],
        examples: [
            Example(commandLine: "camera zoom", comment: "Magnifies live view five times."),
            Example(commandLine: "camera zoom --factor 10 --center 200,120", comment: "Ten times, around 200,120."),
            Example(commandLine: "camera zoom --level 50%", comment: "A Nikon's 50% level."),
            Example(commandLine: "camera zoom --factor 1", comment: "Shows the whole picture again."),
            Example(commandLine: "camera zoom --show --json", comment: "The level the camera reports."),
        ]
    )

    private struct Report: Encodable {
        /// The factor the camera is at; `nil` when it does not say.
        var factor: Int?
        /// The camera's own name for the level, where it has one.
        var level: String?
        var zoomedIn: Bool?
        var center: Center?
        /// The levels the camera offers, by their names (`5x` for a factor).
        var levels: [String]
    }

    private struct Center: Encodable {
        var x: Int
        var y: Int
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let center = try arguments.value("center").map { try point($0, commandPath: arguments.commandPath) }
        let factorGiven = arguments.value("factor") != nil
        let named = arguments.value("level")
        if named != nil, factorGiven {
            throw UsageError("give --factor or --level, not both", commandPath: arguments.commandPath)
        }
        let requested: LiveViewZoomLevel? =
            if let named {
                LiveViewZoomLevel(zoomFactor: 0, name: named)
            } else if center != nil && !factorGiven {
                nil
            } else {
                LiveViewZoomLevel(zoomFactor: try arguments.integer("factor", default: 5, in: 1...100))
            }
        let show = arguments.flag("show")
        if show, factorGiven || named != nil || center != nil {
            throw UsageError(
                "--show changes nothing: give it without --factor, --level or --center",
                commandPath: arguments.commandPath)
        }
        let (level, levels) = try await CameraTarget(arguments).withConnectedCamera {
            camera -> (LiveViewZoomLevel?, [LiveViewZoomLevel]) in
            if show {
                try require(.liveViewZoom, of: camera, else: "cannot magnify its live view")
                return (camera.liveViewZoomLevel, camera.liveViewZoomLevels)
            }
            if requested != nil {
                try require(.liveViewZoom, of: camera, else: "cannot magnify its live view")
            }
            if center != nil {
                try require(.pannableLiveView, of: camera, else: "cannot move the magnified part of its live view")
            }
            var level: LiveViewZoomLevel?
            try await CameraFocusCommand.withLiveView(of: camera, for: "the zoom") {
                do {
                    if let requested {
                        try await camera.setLiveViewZoomLevel(requested)
                    }
                    if let center {
                        try await camera.setLiveViewZoomCenter(center)
                    }
                } catch let error as ViewfinderError where error.code == .invalidArgument {
                    throw UsageError(error.message, commandPath: arguments.commandPath)
                }
                level = camera.liveViewZoomLevel
            }
            return (level, camera.liveViewZoomLevels)
        }
        if arguments.flag("json") {
            try Console.printJSON(
                Report(
                    factor: level.map(\.zoomFactor).flatMap { $0 == 0 ? nil : $0 }, level: level?.name,
                    zoomedIn: level?.isZoomedIn, center: center.map { Center(x: $0.x, y: $0.y) },
                    levels: levels.map(\.description)))
            return
        }
        let shown =
            switch level {
            case let level? where !level.isZoomedIn: "Live view shows the whole picture"
            case let level? where level.zoomFactor > 0: "Magnified live view \(level.zoomFactor) times"
            case let level?: "Live view at \(level)"
            case nil: "Live view magnification unknown"
            }
        Console.print(center.map { "\(shown) around \($0)" } ?? shown)
    }

    /// Reads `X,Y`, each a whole number from 0.
    static func point(_ text: String, commandPath: String) throws -> LiveViewPoint {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Int(parts[0].trimmingPrefix(" ")), let y = Int(parts[1].trimmingPrefix(" ")),
            x >= 0, y >= 0
        else {
            throw UsageError(
                "--center takes X,Y, two whole numbers from 0 such as 200,120, not '\(text)'", commandPath: commandPath)
        }
        return LiveViewPoint(x: x, y: y)
    }
}
