import Viewfinder

/// `viewfinder camera timelapse`: a frame every interval, each a picture or a bulb exposure, saved as it comes.
enum CameraTimelapseCommand: Command {
    static let spec = CommandSpec(
        name: "timelapse",
        abstract: "Take a picture every interval, or a bulb exposure each time, and save the frames.",
        discussion: """
            Takes --frames pictures, frame n due n intervals after the first by a monotonic clock, so the schedule \
            does not drift however long each picture takes. A frame whose time has passed by more than a quarter \
            interval when the camera is ready is skipped and counted, not taken late. With --bulb SECONDS each \
            frame holds the shutter open that long (set the shutter speed to bulb first). With --download DIR each \
            frame's files are saved into DIR as they come. Prints a line per frame, or with --json one JSON object \
            per event; Ctrl-C stops after letting go of the shutter, with exit code 130.
            """,
        options: CameraTarget.options + [
            .value("frames", "N", help: "How many frames to take.", default: "10"),
            .value("interval", "SECONDS", help: "The time from one frame to the next.", default: "10"),
            .value("bulb", "SECONDS", help: "Hold the shutter open this long for each frame, with the speed at bulb."),
        ] + AutomationProgress.pictureOptions,
        examples: [
            Example(
                commandLine: "camera timelapse --frames 360 --interval 10 --download frames",
                comment: "An hour of frames, one every 10 s, saved in ./frames."),
            Example(
                commandLine: "camera timelapse --frames 100 --interval 40 --bulb 30",
                comment: "A 30 s bulb exposure every 40 s, for star trails."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let frames = try arguments.integer("frames", default: 10, in: 1...1_000_000)
        let interval = try arguments.seconds("interval", default: 10, in: 0.1...86_400)
        let bulb = try arguments.value("bulb").map { _ in try arguments.seconds("bulb", default: 1, in: 0.1...86_400) }
        if let bulb, bulb >= interval {
            throw UsageError(
                "--bulb \(bulb) leaves no time between frames every --interval \(interval) s; make the interval longer",
                commandPath: arguments.commandPath)
        }
        try await AutomationProgress.run(arguments) { camera, directory, fileTimeout in
            Timelapse(
                frames: frames, interval: .seconds(interval), bulbExposure: bulb.map { .seconds($0) },
                directory: directory, fileTimeout: fileTimeout
            ).start(on: camera)
        }
    }
}
