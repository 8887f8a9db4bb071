import Viewfinder

/// `viewfinder camera zoom`: magnifies the camera's live view.
enum CameraZoomCommand: Command {
    static let spec = CommandSpec(
        name: "zoom",
        abstract: "Magnify the camera's live view.",
        discussion: """
            Turns live view on (cameras magnify only their live view), magnifies it --factor times around the area \
            the camera keeps for it, usually the autofocus area, and lets live view end. Canon EOS bodies offer 1 \
            (the whole picture), 5 and 10; a factor the camera does not offer is refused before anything is sent.
            """,
        options: CameraTarget.options + [
            .value("factor", "N", help: "How many times to magnify; 1 shows the whole picture.", default: "5"),
            .json,
        ],
        examples: [
            Example(commandLine: "camera zoom", comment: "Magnifies live view five times."),
            Example(commandLine: "camera zoom --factor 1", comment: "Shows the whole picture again."),
        ]
    )

    private struct Report: Encodable {
        var factor: Int
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let factor = try arguments.integer("factor", default: 5, in: 1...100)
        try await CameraTarget(arguments).withConnectedCamera { camera in
            try require(.liveViewZoom, of: camera, else: "cannot magnify its live view")
            try await CameraFocusCommand.withLiveView(of: camera, for: "the zoom") {
                do {
                    try await camera.setLiveViewZoomLevel(LiveViewZoomLevel(zoomFactor: factor))
                } catch let error as ViewfinderError where error.code == .invalidArgument {
                    throw UsageError(error.message, commandPath: arguments.commandPath)
                }
            }
        }
        if arguments.flag("json") {
            try Console.printJSON(Report(factor: factor))
            return
        }
        Console.print("Magnified live view \(factor) times")
    }
}
