import Viewfinder

/// `viewfinder camera shoot`: takes a picture, and downloads it when asked.
enum CameraShootCommand: Command {
    static let spec = CommandSpec(
        name: "shoot",
        abstract: "Take a picture, and download it with --download.",
        discussion: """
            Releases the shutter, waits for the camera to report the picture complete and the new file on its card, \
            and prints the file's name and handle. With --download DIR it downloads the file into DIR (created when \
            missing), with a progress bar on a terminal.
            """,
        options: CameraTarget.options + [
            .value("download", "DIR", short: "d", help: "Download the picture into DIR."),
            .value("timeout", "SECONDS", help: "How long to wait for the new file after the picture.", default: "30"),
            .json,
        ],
        examples: [
            Example(commandLine: "camera shoot", comment: "Takes a picture; it stays on the camera's card."),
            Example(commandLine: "camera shoot --download shots", comment: "Takes a picture and saves it in ./shots."),
        ]
    )

    private struct Report: Encodable {
        var files: [CameraFileRecord]
        var saved: [String]
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let timeout = try arguments.seconds("timeout", default: 30, in: 1...3600)
        let directory = try arguments.value("download").map { try OutputDirectory($0) }
        let json = arguments.flag("json")
        let report = try await CameraTarget(arguments).withConnectedCamera { camera in
            try require(.stillCapture, of: camera, else: "does not take pictures on request")
            let newFiles = try NewCameraFiles(of: camera)
            try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
            let files = try await newFiles.wait(timeout: timeout)
            guard !files.isEmpty else {
                throw CommandFailure(
                    "the camera took the picture but reported no new file within \(Int(timeout)) s",
                    hint: "The picture may have gone to the camera's memory only; 'viewfinder camera files' lists "
                        + "the card.", exitStatus: ExitStatus.timeout)
            }
            var saved: [String] = []
            if let directory {
                saved = try await newFiles.save(files, to: directory, showsProgress: !json)
            }
            return Report(files: files.map { CameraFileRecord($0, folder: nil) }, saved: saved)
        }
        if json {
            try Console.printJSON(report)
            return
        }
        for file in report.files {
            Console.print(
                "Took \(file.name) (handle \(file.handle), \(file.size))")
        }
        for path in report.saved {
            Console.print("Saved \(path)")
        }
    }
}
