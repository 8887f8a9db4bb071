/// The `viewfinder` tool itself: the commands it offers.
enum RootCommand: Command {
    static let spec = CommandSpec(
        name: "viewfinder",
        abstract: "Cameras on Linux: network cameras over PTP/IP, V4L2 capture devices, and a simulated camera.",
        subcommands: [
            DiscoverCommand.self, CameraCommand.self, DevicesCommand.self, FormatsCommand.self,
            ControlsCommand.self, SetControlCommand.self, CaptureCommand.self, PreviewCommand.self, ScanCommand.self,
            RigCommand.self, RemoteCommand.self, WebcamCommand.self, DemoCommand.self, SimulateCommand.self,
            CompletionsCommand.self, ManualCommand.self, VersionCommand.self,
        ]
    )
}

/// `viewfinder version`: prints the tool's version.
enum VersionCommand: Command {
    /// The version of the tool and library.
    static let version = "0.1.0"

    static let spec = CommandSpec(
        name: "version",
        abstract: "Print the version of viewfinder.",
        examples: [Example(commandLine: "version", comment: "Prints the version number.")]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        Console.print("viewfinder \(version)")
    }
}
