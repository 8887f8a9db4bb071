import Viewfinder

/// `viewfinder camera focus-stack`: pictures at focus positions a set number of focus steps apart.
enum CameraFocusStackCommand: Command {
    static let spec = CommandSpec(
        name: "focus-stack",
        abstract: "Take pictures at focus positions steps apart, for focus stacking.",
        discussion: """
            Turns live view on (cameras drive their focus only in live view), takes a picture at the current focus \
            without focusing, then moves the focus --steps steps of the camera's small, medium or large size \
            before each next picture, --shots pictures in all. Focus on the nearest part of the subject first and \
            move --towards infinity, or the other way. A lens that reaches the end of its travel ends the stack \
            there, saying so. With --download DIR the files are saved into DIR.
            """,
        options: CameraTarget.options + [
            .value("shots", "N", help: "How many pictures to take.", default: "5"),
            .value("steps", "N", help: "How many focus steps between pictures.", default: "1"),
            .value("size", "small|medium|large", help: "The size of each focus step.", default: "small"),
            .value("towards", "camera|infinity", help: "Which way the focus moves.", default: "infinity"),
        ] + AutomationProgress.pictureOptions,
        examples: [
            Example(
                commandLine: "camera focus-stack --shots 20 --steps 3 --download stack",
                comment: "20 pictures 3 small steps apart towards infinity, saved in ./stack."),
            Example(
                commandLine: "camera focus-stack --shots 8 --size medium --towards camera",
                comment: "8 pictures a medium step apart towards the camera."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let (size, direction) = try CameraFocusCommand.step(arguments)
        let shots = try arguments.integer("shots", default: 5, in: 1...10_000)
        let steps = try arguments.integer("steps", default: 1, in: 1...1000)
        try await AutomationProgress.run(arguments) { camera, directory, fileTimeout in
            try require(.directFocusDrive, of: camera, else: "cannot drive its focus")
            return FocusStack(
                shots: shots, stepsBetweenShots: steps, stepSize: size, direction: direction, directory: directory,
                fileTimeout: fileTimeout
            ).start(on: camera)
        }
    }
}
