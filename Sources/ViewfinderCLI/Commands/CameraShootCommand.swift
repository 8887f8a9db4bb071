import Viewfinder

/// `viewfinder camera shoot`: takes a picture, and downloads it when asked.
enum CameraShootCommand: Command {
    static let spec = CommandSpec(
        name: "shoot",
        abstract: "Take a picture, and download it with --download.",
        discussion: """
            Releases the shutter, waits for the camera to report the picture complete and the new file on its card, \
            and prints the file's name and handle. With --hold SECONDS it holds the shutter button down that long \
            (or until Ctrl-C) without focusing, which with the shutter speed at bulb makes an exposure as long. With \
            --download DIR it downloads the file into DIR (created when missing), with a progress bar on a terminal.
            """,
        options: CameraTarget.options + [
            .value("download", "DIR", short: "d", help: "Download the picture into DIR."),
            .value("hold", "SECONDS", help: "Hold the shutter button down this long, as a bulb exposure needs."),
            .value("timeout", "SECONDS", help: "How long to wait for the new file after the picture.", default: "30"),
            .json,
        ],
        examples: [
            Example(commandLine: "camera shoot", comment: "Takes a picture; it stays on the camera's card."),
            Example(commandLine: "camera shoot --download shots", comment: "Takes a picture and saves it in ./shots."),
            Example(commandLine: "camera shoot --hold 30", comment: "A 30 s exposure with the shutter speed at bulb."),
        ]
    )

    private struct Report: Encodable {
        var files: [CameraFileRecord]
        var saved: [String]
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let timeout = try arguments.seconds("timeout", default: 30, in: 1...3600)
        let hold = arguments.value("hold") == nil ? nil : try arguments.seconds("hold", default: 0, in: 0.1...86_400)
        let directory = try arguments.value("download").map { try OutputDirectory($0) }
        let json = arguments.flag("json")
        let report = try await CameraTarget(arguments).withConnectedCamera { camera in
            try require(.stillCapture, of: camera, else: "does not take pictures on request")
            if hold != nil {
                try require(.heldShutter, of: camera, else: "cannot hold its shutter button down")
            }
            let newFiles = try NewCameraFiles(of: camera)
            if let hold {
                try await holdShutter(of: camera, for: hold, showsProgress: !json)
            } else {
                try await camera.invokeOneShotShutterExplicitlyEngagingAutoFocus(true)
            }
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

    /// Holds the shutter button down for `seconds` or until Ctrl-C, and lets it go whatever ends the wait.
    private static func holdShutter(of camera: any Camera, for seconds: Double, showsProgress: Bool) async throws {
        Interrupt.beginHandling()
        try await camera.engageShutter()
        let started = ContinuousClock.now
        let deadline = started + .milliseconds(Int64(seconds * 1000))
        let bar =
            showsProgress ? ProgressBar(title: "exposing", total: Int64(seconds.rounded(.up)), unit: .items("s")) : nil
        do {
            while ContinuousClock.now < deadline, !Interrupt.hasOccurred {
                bar?.update(started.duration(to: .now).components.seconds)
                try await Task.sleep(for: .milliseconds(20))
            }
        } catch {
            try? await camera.disengageShutter()
            throw error
        }
        bar?.finish()
        try await camera.disengageShutter()
    }
}
