import Viewfinder

/// `viewfinder discover`: finds a network camera and says what it is.
enum DiscoverCommand: Command {
    static let spec = CommandSpec(
        name: "discover",
        abstract: "Find a network camera and print its model, maker, serial number and address.",
        discussion: """
            Looks for a PTP/IP camera where the options say: at the default gateway (a camera that makes its own \
            WiFi network is the gateway of the computers that join it), at the gateway of an interface, or at an \
            address. It connects just long enough to read what the camera is, then disconnects, so the camera is \
            free for the next command. Exits with 69 when no camera answers there.
            """,
        options: CameraTarget.options + [.json],
        examples: [
            Example(commandLine: "discover", comment: "Looks for a camera at the default gateway."),
            Example(commandLine: "discover --interface wlan0 --family nikon", comment: "A Nikon on wlan0's network."),
            Example(
                commandLine: "discover --host 127.0.0.1:15740 --json",
                comment: "The camera 'viewfinder simulate' runs, as JSON."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let target = try CameraTarget(arguments)
        let record = try await target.withConnectedCamera { CameraRecord($0) }
        if arguments.flag("json") {
            try Console.printJSON(record)
        } else {
            record.lines.forEach(Console.print)
        }
    }
}
