import Foundation
import Viewfinder
import ViewfinderRigNetwork

/// `viewfinder rig collect`: fetches again the pictures the hosts of a rig of many hosts keep of a take.
enum RigCollectCommand: Command {
    static let spec = CommandSpec(
        name: "collect",
        abstract: "Fetch the pictures of a take from the hosts of a rig of many hosts, such as those a shoot missed.",
        discussion: """
            Every host keeps the pictures of each take it fired in a folder of the take's name. This asks every \\
            online host for its files of --take and fetches them into DIR/HOST/, each checked against its size and \\
            SHA-256, as 'rig shoot --download' does: for a host that was cut off during the take, once it is back.
            """,
        options: RigBrokerOptions.options + RigBrokerCommands.options + [
            .value("take", "NAME", help: "The take, as 'rig shoot' printed or was given with --take."),
            .value("download", "DIR", short: "d", help: "Where the pictures go, a folder per host."),
            .value("timeout", "SECONDS", help: "How long the hosts and the downloads may take.", default: "60"),
            .json,
        ],
        examples: [
            Example(
                commandLine: "rig collect --broker mqtt://10.0.0.1 --take take1 --download take1",
                comment: "Fetches what the hosts keep of take take1 into take1/HOST/.")
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        guard let take = arguments.value("take") else {
            throw UsageError("give the take with --take NAME", commandPath: arguments.commandPath)
        }
        guard let folder = arguments.value("download") else {
            throw UsageError("give the folder for the pictures with --download DIR", commandPath: arguments.commandPath)
        }
        let directory = try OutputDirectory(folder)
        let timeout = Duration.seconds(try arguments.seconds("timeout", default: 60, in: 1...3600))
        let rig = try await RigBrokerCommands.connect(arguments)
        defer { rig.disconnect() }
        let report: RigReport<[RigCapture.File]>
        do {
            report = try await rig.collect(take: take, into: directory.path, timeout: timeout)
        } catch let error as ViewfinderError {
            throw CommandFailure(error.message, exitStatus: ExitStatus.unavailable)
        }
        try RigOutcomeRecord.finish(
            report.outcomes.map { outcome in
                RigOutcomeRecord(outcome, address: RigBrokerCommands.host(of: outcome.camera)) { files in
                    "saved " + files.map(\.path).joined(separator: ", ")
                } files: { files in
                    files.map(\.path)
                }
            }, json: arguments.flag("json"))
    }
}
