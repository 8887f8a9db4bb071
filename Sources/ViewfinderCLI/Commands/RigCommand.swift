import Viewfinder

/// `viewfinder rig`: the commands for many network cameras at once.
enum RigCommand: Command {
    static let spec = CommandSpec(
        name: "rig",
        abstract: "Drive many cameras as one: connect, set, shoot and watch them together, on one host or many.",
        discussion: """
            Each command connects every camera given with --hosts at once, does its work on all of them side by \
            side, prints one line per camera (or --json) and disconnects. A camera that cannot be reached or fails \
            is reported and the others carry on; the command then exits with 69. Cameras are named cam0, cam1, … \
            in the order of --hosts, or as --names says; pictures are saved under their camera's name. A rig of \
            many hosts runs 'rig agent' on each host, and 'rig hosts', 'rig set' and 'rig shoot' with --broker \
            instead of --hosts on the coordinator: they meet at an MQTT broker (Eclipse Mosquitto), the shutters \
            fire at one instant on the hosts' clocks, and the pictures come over HTTP from each host; its cameras \
            are then named HOST/CAMERA.
            """,
        examples: [
            Example(
                commandLine: "rig connect --hosts 192.168.1.21,192.168.1.22,192.168.1.23",
                comment: "Checks that three cameras answer, and what they are."),
            Example(
                commandLine: "rig shoot --hosts 127.0.0.1:15740+4 --download shots",
                comment: "Fires the four cameras of 'simulate --count 4' together and saves their pictures."),
            Example(
                commandLine: "rig shoot --broker mqtt://10.0.0.1 --download take1",
                comment: "Fires every camera of every host of the rig at one instant and gathers the pictures."),
        ],
        subcommands: [
            RigConnectCommand.self, RigSetCommand.self, RigShootCommand.self, RigLiveViewCommand.self,
            RigAgentCommand.self, RigHostsCommand.self, RigCollectCommand.self,
        ]
    )
}

/// `viewfinder rig connect`: connects every camera and says what each is.
enum RigConnectCommand: Command {
    static let spec = CommandSpec(
        name: "connect",
        abstract: "Connect every camera of the rig and print what each is, and how long it took.",
        options: RigTarget.options + [.json],
        examples: [
            Example(commandLine: "rig connect --hosts 127.0.0.1:15740+4", comment: "Four simulated cameras.")
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let target = try RigTarget(arguments)
        let rig = try await target.makeRig(commandPath: arguments.commandPath)
        let report = await rig.connect(timeout: target.connectTimeout)
        let records = zip(report.outcomes, rig.members).map { outcome, member in
            RigOutcomeRecord(outcome, address: target.address(of: outcome.camera)) { _ in
                guard let info = member.camera.deviceInfo else { return "connected" }
                return "connected \(info.manufacturer) \(info.model) (serial \(info.serialNumber))"
            }
        }
        await rig.disconnect()
        try RigOutcomeRecord.finish(
            records, json: arguments.flag("json"),
            summary: "\(report.successes.count) of \(records.count) cameras connected")
    }
}

/// `viewfinder rig set NAME VALUE`: sets one property on every camera.
enum RigSetCommand: Command {
    static let spec = CommandSpec(
        name: "set",
        abstract: "Set one property to the same value on every camera of the rig.",
        discussion: """
            NAME and VALUE are written as for 'viewfinder camera set'. A camera that does not take the value now \
            fails on its own line, with the values it takes. With --broker, every camera of every host of the rig \
            is set by its host's agent. Properties and their values: \(CameraProperties.help).
            """,
        options: RigTarget.options + RigBrokerOptions.options + RigBrokerCommands.options + [
            .value("timeout", "SECONDS", help: "How long each camera may take.", default: "10"), .json,
        ],
        arguments: [
            ArgumentSpec(name: "NAME", help: "The property, such as iso, shutter, aperture or ev."),
            ArgumentSpec(name: "VALUE", help: "The value, such as 800, 1/250, f/8 or +1/3."),
        ],
        examples: [
            Example(commandLine: "rig set iso 400 --hosts 127.0.0.1:15740+4", comment: "ISO 400 on four cameras."),
            Example(
                commandLine: "rig set iso 400 --broker mqtt://10.0.0.1", comment: "ISO 400 on every host's cameras."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let property = try CameraProperties.named(arguments.positionals[0], commandPath: arguments.commandPath)
        let text = arguments.positionals[1]
        let timeout = try arguments.seconds("timeout", default: 10, in: 0.1...600)
        if arguments.value("broker") != nil {
            try RigTarget.refuseHosts(with: arguments)
            try await RigBrokerCommands.set(
                arguments, property: arguments.positionals[0], value: text, timeout: .seconds(timeout))
            return
        }
        let target = try RigTarget(arguments)
        try await target.withConnectedRig(commandPath: arguments.commandPath) { rig, connectFailures in
            let report = await rig.forEachCamera(doing: "set \(arguments.positionals[0])", timeout: .seconds(timeout)) {
                member in
                do {
                    try await property.set(text, on: member.camera)
                } catch let failure as CommandFailure {
                    let hint = failure.hint.map { " (\($0))" } ?? ""
                    throw ViewfinderError(.invalidPropertyValue, failure.message + hint)
                }
                return property.reading(of: member.camera)
            }
            let records = report.outcomes.map { outcome in
                RigOutcomeRecord(outcome, address: target.address(of: outcome.camera)) { reading in
                    "\(reading.displayName) is \(reading.value ?? text)"
                }
            }
            try RigOutcomeRecord.finish(connectFailures + records, json: arguments.flag("json"))
        }
    }
}
