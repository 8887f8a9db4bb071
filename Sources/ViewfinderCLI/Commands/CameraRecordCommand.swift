import Viewfinder

/// `viewfinder camera record`: records a movie, and downloads it when asked.
enum CameraRecordCommand: Command {
    static let spec = CommandSpec(
        name: "record",
        abstract: "Record a movie for --seconds or until Ctrl-C, and download it with --download.",
        discussion: """
            Starts the camera recording a movie (turning its live view on first where it needs that), shows the \
            time recorded on a terminal, and stops after --seconds, at Ctrl-C, or when the camera stops by itself \
            (a full card, its own time limit). It then waits for the camera to report the movie's file on its \
            card and prints the file's name and handle; with --download DIR it downloads it into DIR (created when \
            missing), with a progress bar on a terminal.
            """,
        options: CameraTarget.options + [
            .value("seconds", "SECONDS", short: "s", help: "How long to record; until Ctrl-C when not given."),
            .value("download", "DIR", short: "d", help: "Download the movie into DIR."),
            .value("timeout", "SECONDS", help: "How long to wait for the movie's file after recording.", default: "60"),
            .json,
        ],
        examples: [
            Example(commandLine: "camera record --seconds 10", comment: "Ten seconds of movie; it stays on the card."),
            Example(
                commandLine: "camera record --download movies --usb any",
                comment: "Records until Ctrl-C from the camera on USB, then saves the movie in ./movies."),
        ]
    )

    private struct Report: Encodable {
        var seconds: Double
        var stoppedBy: String
        var files: [CameraFileRecord]
        var saved: [String]
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let seconds =
            arguments.value("seconds") == nil ? nil : try arguments.seconds("seconds", default: 0, in: 0.1...86_400)
        let timeout = try arguments.seconds("timeout", default: 60, in: 1...3600)
        let directory = try arguments.value("download").map { try OutputDirectory($0) }
        let json = arguments.flag("json")
        let report = try await CameraTarget(arguments).withConnectedCamera { camera in
            try require(.videoRecording, of: camera, else: "does not record movies on request")
            let newFiles = try NewCameraFiles(of: camera)
            Interrupt.beginHandling()
            try await camera.startVideoRecording()
            let started = ContinuousClock.now
            let stoppedBy = try await waitWhileRecording(camera, for: seconds, showsProgress: !json)
            let recorded = started.duration(to: .now)
            if stoppedBy != "camera" {
                try await camera.stopVideoRecording()
            }
            let files = try await newFiles.wait(timeout: timeout)
            guard !files.isEmpty else {
                throw CommandFailure(
                    "the camera stopped recording but reported no new file within \(Int(timeout)) s",
                    hint: "'viewfinder camera files' lists the card.", exitStatus: ExitStatus.timeout)
            }
            var saved: [String] = []
            if let directory {
                saved = try await newFiles.save(files, to: directory, showsProgress: !json)
            }
            return Report(
                seconds: Double(recorded.components.seconds) + Double(recorded.components.attoseconds) / 1e18,
                stoppedBy: stoppedBy, files: files.map { CameraFileRecord($0, folder: nil) }, saved: saved)
        }
        if json {
            try Console.printJSON(report)
            return
        }
        for file in report.files {
            Console.print(
                "Recorded \(file.name) (handle \(file.handle), \(file.size)) in "
                    + String(format: "%.1f s", report.seconds))
        }
        for path in report.saved {
            Console.print("Saved \(path)")
        }
    }

    /// Waits until `seconds` have passed, Ctrl-C, or the camera stops recording by itself; says which: `time`,
    /// `interrupt` or `camera`.
    private static func waitWhileRecording(_ camera: any Camera, for seconds: Double?, showsProgress: Bool)
        async throws -> String
    {
        let started = ContinuousClock.now
        let deadline = seconds.map { started + .milliseconds(Int64($0 * 1000)) }
        var bar: ProgressBar?
        if showsProgress, let seconds {
            bar = ProgressBar(title: "recording", total: Int64(seconds.rounded(.up)), unit: .items("s"))
        } else if showsProgress {
            Console.printToError("Recording; Ctrl-C stops.")
        }
        while true {
            if Interrupt.hasOccurred { return "interrupt" }
            if let deadline, ContinuousClock.now >= deadline { return "time" }
            if camera.videoRecordingState == .notRecording { return "camera" }
            bar?.update(started.duration(to: .now).components.seconds)
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
