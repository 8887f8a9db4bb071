import Viewfinder

/// `viewfinder camera clock`: shows the camera's clock against this computer's, and sets it.
enum CameraClockCommand: Command {
    static let spec = CommandSpec(
        name: "clock",
        abstract: "Show how far the camera's clock is from this computer's, and set it.",
        discussion: """
            Reads the camera's clock and prints it in UTC with how many seconds it is ahead of this computer's \
            clock (behind when negative). With --set it first sets the camera's clock to this computer's, so that \
            the pictures' dates match; cameras keep whole seconds. A camera whose clock cannot be read or set over \
            its connection says so with exit code 76.
            """,
        options: CameraTarget.options + [
            .flag("set", help: "Set the camera's clock to this computer's first."),
            .json,
        ],
        examples: [
            Example(commandLine: "camera clock", comment: "How far the camera's clock is off."),
            Example(commandLine: "camera clock --set", comment: "Set the camera's clock to this computer's."),
        ]
    )

    private struct Report: Encodable {
        var camera: String
        var computer: String
        var aheadSeconds: Int64
        var set: Bool
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let setting = arguments.flag("set")
        let report = try await CameraTarget(arguments).withConnectedCamera { camera in
            try require(.clockUpdate, of: camera, else: "cannot read or set its clock")
            if setting {
                try await camera.updateClock(to: .now())
            }
            let cameraTime = try await camera.readClock()
            let computerTime = CameraClockTime.now()
            return Report(
                camera: cameraTime.description, computer: computerTime.description,
                aheadSeconds: cameraTime.secondsSince1970 - computerTime.secondsSince1970, set: setting)
        }
        if arguments.flag("json") {
            try Console.printJSON(report)
            return
        }
        let offset =
            report.aheadSeconds == 0
            ? "the same as this computer's"
            : report.aheadSeconds > 0
                ? "\(report.aheadSeconds) s ahead of this computer's"
                : "\(-report.aheadSeconds) s behind this computer's"
        Console.print(
            "\(report.set ? "Set the camera's clock: " : "")the camera's clock says \(report.camera), \(offset)")
    }
}
