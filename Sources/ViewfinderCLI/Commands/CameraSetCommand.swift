import Viewfinder

/// `viewfinder camera set NAME VALUE`: sets a property, as people write its values.
enum CameraSetCommand: Command {
    static let spec = CommandSpec(
        name: "set",
        abstract: "Set one of the camera's properties and wait until the camera shows the new value.",
        discussion: """
            VALUE is written as people write it, or as 'props' shows it; 'up' and 'down' move to the next or previous \
            value, the only way to set a property the camera steps through. Properties and their values: \
            \(CameraProperties.help). A value the camera does not take now exits with 65 and lists the values it \
            takes; they depend on its state (in aperture priority the camera sets the shutter speed itself).
            """,
        options: CameraTarget.options,
        arguments: [
            ArgumentSpec(name: "NAME", help: "The property, such as iso, shutter, aperture or ev."),
            ArgumentSpec(name: "VALUE", help: "The value, such as 800, 1/250, f/8 or +1/3, or up or down."),
        ],
        examples: [
            Example(commandLine: "camera set iso 800", comment: "Sets ISO 800."),
            Example(commandLine: "camera set shutter 1/250", comment: "Sets a shutter speed of 1/250 s."),
            Example(commandLine: "camera set aperture f/8", comment: "Sets the aperture to f/8."),
            Example(commandLine: "camera set ev -2/3", comment: "Sets the exposure compensation to −⅔ stop."),
            Example(commandLine: "camera set mode A", comment: "Switches to aperture priority."),
            Example(commandLine: "camera set aperture up", comment: "Closes the aperture by one step."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let property = try CameraProperties.named(arguments.positionals[0], commandPath: arguments.commandPath)
        let text = arguments.positionals[1]
        let reading = try await CameraTarget(arguments).withConnectedCamera { camera in
            try await property.set(text, on: camera)
            return property.reading(of: camera)
        }
        Console.print("\(reading.displayName) is \(reading.value ?? text)")
    }
}
