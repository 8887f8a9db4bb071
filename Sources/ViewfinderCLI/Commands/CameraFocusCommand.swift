import Viewfinder

/// `viewfinder camera focus`: moves the lens's focus in the camera's own steps.
enum CameraFocusCommand: Command {
    static let spec = CommandSpec(
        name: "focus",
        abstract: "Move the lens's focus in steps, focus at a point of live view, or show the autofocus points.",
        discussion: """
            Turns live view on (cameras drive their focus only in live view), moves the focus --steps times by the \
            camera's small, medium or large step, and lets live view end. The lens must be set to autofocus. A lens \
            that reaches the end of its travel stops the command with exit code 76, saying how many steps it took. \
            With --at X,Y the camera moves its autofocus area to that point of the live view picture, in the \
            coordinates of the picture's aspect (a Nikon's whole 6000x4000 picture, say), and focuses there; --info \
            shows where the autofocus points are and which the camera uses.
            """,
        options: CameraTarget.options + [
            .value("size", "small|medium|large", help: "The size of each step.", default: "small"),
            .value("towards", "camera|infinity", help: "Which way the focus moves.", default: "infinity"),
            .value("steps", "N", help: "How many steps to take.", default: "1"),
            .value("at", "X,Y", help: "Focus at this point of the live view picture instead of moving in steps."),
            .flag("info", help: "Show the autofocus points instead of moving the focus."),
            .json,
        ],
        examples: [
            Example(commandLine: "camera focus --size large", comment: "One large step towards infinity."),
            Example(
                commandLine: "camera focus --towards camera --steps 5",
                comment: "Five small steps towards the camera."),
            Example(
                commandLine: "camera focus --at 1500,1000", comment: "Focus at a point left of and above the middle."),
            Example(commandLine: "camera focus --info --json", comment: "The autofocus points as JSON."),
        ]
    )

    private struct Report: Encodable {
        var size: String
        var towards: String
        var steps: Int
    }

    /// The step sizes by the names the command and the remote take.
    static let sizes: [String: FocusDriveAmount] = ["small": .small, "medium": .medium, "large": .large]
    /// The directions by the names the command and the remote take.
    static let directions: [String: FocusDriveDirection] = [
        "camera": .towardsCamera, "infinity": .towardsInfinity,
    ]

    /// The step `--size` and `--towards` give, which `focus-stack` takes too.
    ///
    /// - Throws: ``UsageError`` for a size or direction it does not know.
    static func step(_ arguments: ParsedArguments) throws -> (FocusDriveAmount, FocusDriveDirection) {
        let sizeName = arguments.value("size") ?? "small"
        let towardsName = arguments.value("towards") ?? "infinity"
        guard let size = sizes[sizeName] else {
            throw UsageError(
                "--size takes small, medium or large, not '\(sizeName)'", commandPath: arguments.commandPath)
        }
        guard let direction = directions[towardsName] else {
            throw UsageError(
                "--towards takes camera or infinity, not '\(towardsName)'", commandPath: arguments.commandPath)
        }
        return (size, direction)
    }

    static func run(_ arguments: ParsedArguments) async throws {
        if arguments.flag("info") || arguments.value("at") != nil {
            try await runAtPoint(arguments)
            return
        }
        let (size, direction) = try step(arguments)
        let steps = try arguments.integer("steps", default: 1, in: 1...1000)
        try await CameraTarget(arguments).withConnectedCamera { camera in
            try require(.directFocusDrive, of: camera, else: "cannot drive its focus")
            try await withLiveView(of: camera, for: "the focus drive") {
                for step in 0..<steps {
                    do {
                        try await camera.driveFocus(size, towards: direction)
                    } catch let error as ViewfinderError where step > 0 {
                        throw CommandFailure(
                            "the focus stopped after \(step) of \(steps) steps: \(error.message)",
                            exitStatus: ExitStatus.unsupported)
                    }
                }
            }
        }
        let sizeName = arguments.value("size") ?? "small"
        let towardsName = arguments.value("towards") ?? "infinity"
        let report = Report(size: sizeName, towards: towardsName, steps: steps)
        if arguments.flag("json") {
            try Console.printJSON(report)
            return
        }
        Console.print("Moved the focus \(steps) \(sizeName) step\(steps == 1 ? "" : "s") towards \(towardsName)")
    }

    /// What `body` threw, set apart from live view's own failures.
    private struct BodyFailure: Error {
        let error: any Error
    }

    /// Runs `body` with the camera's live view on, saying what went wrong when live view, which `purpose` needs, does
    /// not start; `zoom` takes it too.
    static func withLiveView(
        of camera: any Camera, for purpose: String, _ body: () async throws -> Void
    ) async throws {
        do {
            try await LiveViewHold.run(on: camera) {
                do {
                    try await body()
                } catch {
                    throw BodyFailure(error: error)
                }
            }
        } catch let failure as BodyFailure {
            throw failure.error
        } catch let error as ViewfinderError {
            throw CommandFailure(
                "live view, which \(purpose) needs, failed: \(error.message)",
                hint: "Check that the camera is in a mode that allows live view, and try again.",
                exitStatus: error.code == .timeout ? ExitStatus.timeout : ExitStatus.unavailable)
        }
    }
}
