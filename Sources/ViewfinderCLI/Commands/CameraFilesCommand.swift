import Viewfinder

/// `viewfinder camera files`: the files on the camera's cards.
enum CameraFilesCommand: Command {
    static let spec = CommandSpec(
        name: "files",
        abstract: "List the files on the camera's cards with their handles, sizes and dates.",
        discussion: "'download' takes the handles this lists.",
        options: CameraTarget.options + [.json],
        examples: [
            Example(commandLine: "camera files", comment: "A table of the files on the card."),
            Example(commandLine: "camera files --json", comment: "The same as JSON."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let records = try await CameraTarget(arguments).withConnectedCamera { camera in
            try await CameraFileListing(of: camera).files.map(\.record)
        }
        if arguments.flag("json") {
            try Console.printJSON(records)
            return
        }
        guard !records.isEmpty else {
            Console.printToError("The camera's card has no files.")
            return
        }
        Console.printTable(
            header: ["HANDLE", "SIZE", "DATE", "PIXELS", "PATH"],
            rows: records.map { file in
                let pixels = file.width.flatMap { width in file.height.map { "\(width)x\($0)" } } ?? "-"
                return [
                    String(file.handle), file.size, file.captureDate ?? "-",
                    pixels, file.path,
                ]
            })
    }
}
