/// `viewfinder demo`: the main job on the built-in simulated camera, or with `--pipeline` generated frames through a
/// frame source and a capture context.
enum DemoCommand: Command {
    static let spec = CommandSpec(
        name: "demo",
        abstract: "Show the main job on the built-in simulated camera: connect, set, watch, shoot, download.",
        discussion: """
            Starts a simulated Nikon camera in this process on a free loopback port, finds it with manual \
            discovery and connects to it over PTP/IP, prints its device information and its properties with their \
            current and settable values, sets ISO and shutter speed while printing the changes the property \
            publishers report, runs live view with sinkWithReadyHandler and prints the frame rate it achieves, \
            takes a photo and downloads it with a progress bar, and saves a live view frame and the photo into the \
            output directory. It takes a few seconds.

            With --pipeline it instead pushes generated NV12 frames through a SequenceFrameSource into a \
            DataCaptureContext and prints what the pipeline did with them: frames queued before the source is on, \
            delivered and dropped counts, the latency from add(_:) to the processor, a processor slower than the \
            camera (the source drops frames instead of building up latency), a rejected frame in the wrong pixel \
            format, and a queue kept while the source is off.
            """,
        options: [
            .value(
                "out", "DIRECTORY", help: "Where to save the live view frame and the photo.", default: "demo-output"),
            .value("live-view", "SECONDS", help: "How long to run live view.", default: "3"),
            .flag("pipeline", help: "Run generated frames through a frame source and a capture context instead."),
            .value("frames", "N", help: "With --pipeline: frames the camera delivers in each stage.", default: "120"),
            .value("fps", "RATE", help: "With --pipeline: frames per second the camera delivers.", default: "60"),
            .value("size", "WxH", help: "With --pipeline: the size of the frames.", default: "640x480"),
        ],
        examples: [
            Example(commandLine: "demo", comment: "Runs the main job and saves its files into demo-output/."),
            Example(
                commandLine: "demo --out /tmp/shots --live-view 10",
                comment: "Saves into /tmp/shots, after ten seconds of live view."),
            Example(commandLine: "demo --pipeline", comment: "The frame pipeline with 640x480 frames at 60 fps."),
            Example(
                commandLine: "demo --pipeline --size 1920x1080 --fps 30",
                comment: "The frame pipeline with full HD frames at 30 fps."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let cameraOptions = ["out", "live-view"].filter { arguments.value($0) != nil }
        let pipelineOptions = ["frames", "fps", "size"].filter { arguments.value($0) != nil }
        if arguments.flag("pipeline") {
            guard cameraOptions.isEmpty else {
                throw UsageError(
                    "--\(cameraOptions[0]) is for the camera demo, not for --pipeline",
                    commandPath: arguments.commandPath)
            }
            let frames = try arguments.integer("frames", default: 120, in: 1...100_000)
            let rate = try arguments.integer("fps", default: 60, in: 1...1000)
            let (width, height) = try size(arguments.value("size") ?? "640x480", commandPath: arguments.commandPath)
            try await PipelineDemo(framesPerStage: frames, framesPerSecond: rate, width: width, height: height).run()
            return
        }
        guard pipelineOptions.isEmpty else {
            throw UsageError("--\(pipelineOptions[0]) needs --pipeline", commandPath: arguments.commandPath)
        }
        let liveViewSeconds = try arguments.seconds("live-view", default: 3, in: 0.5...600)
        let output = try OutputDirectory(arguments.value("out") ?? "demo-output")
        try await CameraDemo(output: output, liveViewDuration: .milliseconds(Int(liveViewSeconds * 1000))).run()
    }

    /// Reads `WIDTHxHEIGHT`, each from 2 to 8192 and even, as NV12 needs.
    private static func size(_ text: String, commandPath: String) throws -> (width: Int, height: Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (2...8192).contains(width), (2...8192).contains(height), width % 2 == 0, height % 2 == 0
        else {
            throw UsageError(
                "--size takes WIDTHxHEIGHT with even numbers from 2 to 8192, such as 640x480, not '\(text)'",
                commandPath: commandPath)
        }
        return (width, height)
    }
}
