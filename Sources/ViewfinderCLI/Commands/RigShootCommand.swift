import Foundation
import Viewfinder

/// `viewfinder rig shoot`: fires every camera together, and downloads the pictures when asked.
enum RigShootCommand: Command {
    static let spec = CommandSpec(
        name: "shoot",
        abstract: "Fire every camera's shutter together, and download the pictures with --download.",
        discussion: """
            Once every camera is connected and ready, the shutter requests go out together; the spread between the \
            first and the last request is printed. With --download DIR each camera's new picture is saved in DIR \
            (created when missing) as its camera's name, a dash and the camera's file name, such as \
            DIR/cam3-DSC_0042.JPG; the downloads run side by side. With --broker, every host of the rig fires its \
            cameras at one instant --lead ahead on the hosts' clocks (a host whose clock is off by more than \
            --max-clock-offset is left out, and the shoot is refused when the lead is too short to reach every \
            host); each host downloads its cameras' pictures, and with --download they are fetched from the hosts \
            into DIR/HOST/, each checked against its size and SHA-256.
            """,
        options: RigTarget.options + RigBrokerOptions.options + RigBrokerCommands.options
            + RigBrokerCommands.shootOptions + [
                .value("download", "DIR", short: "d", help: "Download each camera's picture into DIR."),
                .flag("af", help: "Focus before each picture (the pictures then follow each camera's focusing)."),
                .value("timeout", "SECONDS", help: "How long each camera may take, downloads included.", default: "60"),
                .json,
            ],
        examples: [
            Example(commandLine: "rig shoot --hosts 127.0.0.1:15740+4", comment: "Fires four cameras together."),
            Example(
                commandLine: "rig shoot --hosts 10.0.0.21,10.0.0.22 --names left,right --download take1",
                comment: "Saves take1/left-….JPG and take1/right-….JPG."),
            Example(
                commandLine: "rig shoot --broker mqtt://10.0.0.1 --wait-for 16 --download take1",
                comment: "Waits for 16 hosts, fires them all at once, and gathers take1/h01/cam0-….JPG and the rest."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let timeout = Duration.seconds(try arguments.seconds("timeout", default: 60, in: 1...3600))
        let directory = try arguments.value("download").map { try OutputDirectory($0) }
        let focus = arguments.flag("af")
        if arguments.value("broker") != nil {
            try RigTarget.refuseHosts(with: arguments)
            try await RigBrokerCommands.shoot(arguments, directory: directory, focus: focus, timeout: timeout)
            return
        }
        let target = try RigTarget(arguments)
        try await target.withConnectedRig(commandPath: arguments.commandPath) { rig, connectFailures in
            let records: [RigOutcomeRecord]
            let spread: Duration
            if let directory {
                let report = await rig.capturePictures(into: directory.path, engagingAutoFocus: focus, timeout: timeout)
                spread = report.requestSpread
                records = report.outcomes.map { outcome in
                    RigOutcomeRecord(outcome, address: target.address(of: outcome.camera)) { capture in
                        "saved " + capture.files.map(\.path).joined(separator: ", ")
                    } files: { capture in
                        capture.files.map(\.path)
                    }
                }
            } else {
                let report = await rig.fireShutters(engagingAutoFocus: focus, timeout: timeout)
                spread = report.requestSpread
                records = report.outcomes.map { outcome in
                    RigOutcomeRecord(outcome, address: target.address(of: outcome.camera)) { release in
                        String(
                            format: "took a picture in %.0f ms",
                            release.requested.duration(to: release.completed).inSeconds * 1000)
                    }
                }
            }
            try RigOutcomeRecord.finish(
                connectFailures + records, json: arguments.flag("json"),
                summary: String(
                    format: "Shutter requests went out within %.2f ms of each other", spread.inSeconds * 1000))
        }
    }
}
