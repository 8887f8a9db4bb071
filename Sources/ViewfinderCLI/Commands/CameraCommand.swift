/// `viewfinder camera`: the commands for a network camera.
enum CameraCommand: Command {
    static let spec = CommandSpec(
        name: "camera",
        abstract:
            "Control a network camera: information, properties, shutter, live view, files, events, automations.",
        discussion: """
            Each command finds the camera as 'viewfinder discover' does (the default gateway, unless --interface or \
            --host says otherwise), connects, does its work and disconnects. Exit codes: 64 a wrong command line, \
            65 a value the camera does not take, 66 no such file or property on the camera, 69 no camera found or \
            reachable, or the camera went away, 73 an output file that cannot be created, 75 the camera did not \
            answer in time, 76 the camera cannot do what was asked (it lacks the ability, or refused the request), \
            130 stopped with Ctrl-C. Every command takes --sync-clock, which sets the camera's clock to this \
            computer's as it connects, and --power-off, which turns the camera off as it disconnects; what they \
            could not do is a warning on standard error (a JSON object a line with --json). A camera that asks its \
            user before it lets this computer in says so on standard error ("Confirm the connection on the \
            camera's screen..."); the command waits up to a minute, and Ctrl-C gives up.
            """,
        examples: [
            Example(commandLine: "camera info --host 192.168.1.1", comment: "What the camera is and can do."),
            Example(commandLine: "camera set iso 800", comment: "Sets ISO 800 on the camera at the default gateway."),
        ],
        subcommands: [
            CameraInfoCommand.self, CameraPropsCommand.self, CameraGetCommand.self, CameraSetCommand.self,
            CameraShootCommand.self, CameraFocusCommand.self, CameraZoomCommand.self, CameraClockCommand.self,
            CameraCategoriesCommand.self, CameraRecordCommand.self, CameraLiveViewCommand.self, CameraFilesCommand.self,
            CameraDownloadCommand.self,
            CameraWatchCommand.self, CameraTimelapseCommand.self, CameraBracketCommand.self,
            CameraFocusStackCommand.self, CameraTetherCommand.self,
        ]
    )
}
