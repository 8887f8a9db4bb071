/// `viewfinder demo`: runs generated frames through a frame source into a capture context and shows what happened.
enum DemoCommand: Command {
    static let spec = CommandSpec(
        name: "demo",
        abstract: "Run generated frames through a frame source and a capture context, and show what happened.",
        discussion: """
            Generates NV12 frames as a camera would, pushes them into a SequenceFrameSource set on a \
            DataCaptureContext, and prints what the pipeline did with them: frames queued before the source is on, \
            delivered and dropped counts, the latency from add(_:) to the processor, a processor slower than the \
            camera (the source drops frames instead of building up latency), a rejected frame in the wrong pixel \
            format, and a queue kept while the source is off.
            """,
        options: [
            .value("frames", "N", help: "Frames the camera delivers in each stage.", default: "120"),
            .value("fps", "RATE", help: "Frames per second the camera delivers.", default: "60"),
            .value("size", "WxH", help: "The size of the frames.", default: "640x480"),
        ],
        examples: [
            Example(commandLine: "demo", comment: "Runs the demo with 640x480 frames at 60 fps."),
            Example(commandLine: "demo --size 1920x1080 --fps 30", comment: "Runs it with full HD frames at 30 fps."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let frames = try arguments.integer("frames", default: 120, in: 1...100_000)
        let rate = try arguments.integer("fps", default: 60, in: 1...1000)
        let (width, height) = try size(arguments.value("size") ?? "640x480", commandPath: arguments.commandPath)
        try await PipelineDemo(framesPerStage: frames, framesPerSecond: rate, width: width, height: height).run()
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
