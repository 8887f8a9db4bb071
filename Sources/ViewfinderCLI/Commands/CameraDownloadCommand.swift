import Viewfinder

/// `viewfinder camera download HANDLE|--all`: downloads files from the camera's cards.
enum CameraDownloadCommand: Command {
    static let spec = CommandSpec(
        name: "download",
        abstract: "Download files from the camera's cards, with a progress bar.",
        discussion: """
            Downloads the files HANDLE names ('files' lists the handles), or every file with --all, into DIR \
            (created when missing) under their names on the card, replacing files of the same name. Files are \
            fetched a piece at a time and written as they come, so memory stays small however large the file. \
            Progress is a bar on a terminal and a line every quarter otherwise, on standard error; standard output \
            gets the path of each saved file.
            """,
        options: CameraTarget.options + [
            .flag("all", help: "Download every file on the camera's cards."),
            .value("out", "DIR", short: "o", help: "The directory to save into; created when missing.", default: "."),
        ],
        arguments: [
            ArgumentSpec(
                name: "HANDLE", help: "A file's handle, as 'files' lists it.", isOptional: true, isRepeating: true)
        ],
        examples: [
            Example(commandLine: "camera download 7", comment: "Downloads the file with handle 7 here."),
            Example(commandLine: "camera download --all --out card", comment: "Downloads every file into ./card."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let all = arguments.flag("all")
        guard all != !arguments.positionals.isEmpty else {
            throw UsageError(
                all ? "give HANDLE or --all, not both" : "download needs HANDLE, or --all",
                commandPath: arguments.commandPath)
        }
        let directory = try OutputDirectory(arguments.value("out") ?? ".")
        try await CameraTarget(arguments).withConnectedCamera { camera in
            let listing = try await CameraFileListing(of: camera)
            let files =
                try all
                ? listing.files
                : arguments.positionals.map {
                    try listing.file($0, commandPath: arguments.commandPath)
                }
            let download = CameraDownload(
                access: try CameraFileListing.fileAccess(of: camera), directory: directory, showsProgress: true)
            for file in files {
                Console.print(try await download.download(file.item))
            }
            if files.isEmpty {
                Console.printToError("The camera's card has no files.")
            }
        }
    }
}
