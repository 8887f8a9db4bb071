import Viewfinder

/// `viewfinder camera get NAME`: one property's value.
enum CameraGetCommand: Command {
    static let spec = CommandSpec(
        name: "get",
        abstract: "Print the current value of one of the camera's properties.",
        discussion: "Properties: \(CameraProperties.help).",
        options: CameraTarget.options + [.json],
        arguments: [ArgumentSpec(name: "NAME", help: "The property, such as iso, shutter, aperture or ev.")],
        examples: [
            Example(commandLine: "camera get iso", comment: "Prints the ISO, such as 'ISO 800'."),
            Example(commandLine: "camera get shutter --json", comment: "The shutter speed and its settable values."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let property = try CameraProperties.named(arguments.positionals[0], commandPath: arguments.commandPath)
        let reading = try await CameraTarget(arguments).withConnectedCamera { property.reading(of: $0) }
        guard let value = reading.value else {
            throw CommandFailure(
                "this camera does not report \(reading.displayName)",
                hint: "'viewfinder camera props' lists the properties it reports.", exitStatus: ExitStatus.notFound)
        }
        if arguments.flag("json") {
            try Console.printJSON(reading)
            return
        }
        Console.print(value)
    }
}
