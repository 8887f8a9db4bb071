import Foundation
import Viewfinder
import ViewfinderRigNetwork
import ViewfinderSimulator

/// `viewfinder rig agent`: one host of a rig of many hosts, driving its cameras on a coordinator's commands.
enum RigAgentCommand: Command {
    static let spec = CommandSpec(
        name: "agent",
        abstract:
            "Run this host's cameras for a rig of many hosts, on the commands of a coordinator at an MQTT broker.",
        discussion: """
            The agent connects this host's cameras (--hosts for network cameras, --usb for cameras attached by USB, \
            or --simulated N for N built-in simulated cameras) and the broker, and keeps a retained record on \
            vf/RIG/host/NAME/state: its cameras, its version, its clock (chrony, PTP or none, and the kernel's \
            figures) and where it serves its files; the broker says "offline" there when the agent goes (its last \
            will). It sets, arms and fires its cameras on the commands of 'viewfinder rig set|shoot --broker', each \
            applied once however often it arrives; a fire comes with an instant on the hosts' clocks and is not \
            executed when it arrives too late for it. Pictures stay on this host under --storage, in a folder per \
            take, and are fetched by the coordinator over HTTP with a token (never through the broker). After a \
            broker restart or a lost link the agent reconnects every second and says so. Ctrl-C says goodbye and \
            stops.
            """,
        options: RigBrokerOptions.options + [
            .value("name", "NAME", help: "This host's name in the rig, such as h03 (letters, digits, '-', '_', '.')."),
            .value("hosts", "LIST", help: "Network cameras, as for 'viewfinder rig shoot --hosts'."),
            .value("names", "LIST", help: "The names of the --hosts cameras (cam0, cam1, … by default)."),
            .value(
                "usb", "SELECTOR[,SELECTOR...]",
                help: "Cameras attached by USB, each by its place (BUS:ADDR), serial number, or any for the only one."),
            .value("simulated", "N", help: "Run N built-in simulated cameras, to try a rig without cameras."),
            .value(
                "storage", "DIR", help: "Where the pictures are kept, a folder per take.",
                default: "/var/tmp/viewfinder-rig/NAME"),
            .value(
                "files-bind", "ADDRESS", help: "The numeric address the file server listens on.", default: "0.0.0.0"),
            .value("files-port", "PORT", help: "The file server's port; 0 picks a free one.", default: "0"),
            .value(
                "advertise", "ADDRESS",
                help: "The address the coordinator fetches files at (the address that reaches the broker by default)."),
            .value(
                "simulated-clock-error", "MS",
                help: "With --simulated, act as if this host's clock were off by MS milliseconds, to try the "
                    + "coordinator's clock check."),
        ],
        examples: [
            Example(
                commandLine: "rig agent --broker mqtt://10.0.0.1 --name h03 --hosts 10.0.3.21,10.0.3.22",
                comment: "Host h03 with two network cameras."),
            Example(
                commandLine: "rig agent --broker mqtt://127.0.0.1 --name try --simulated 4 --storage /tmp/takes",
                comment: "Four simulated cameras; then 'viewfinder rig shoot --broker mqtt://127.0.0.1 --download out'."
            ),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let commandPath = arguments.commandPath
        guard let name = arguments.value("name") else {
            throw UsageError("give this host's name with --name, such as --name h03", commandPath: commandPath)
        }
        let broker = try RigBrokerOptions.broker(arguments)
        let sources = ["hosts", "usb", "simulated"].filter { arguments.value($0) != nil }
        guard sources.count == 1 else {
            throw UsageError(
                "give this host's cameras with one of --hosts, --usb and --simulated", commandPath: commandPath)
        }
        let clockError = try arguments.integer("simulated-clock-error", default: 0, in: -3_600_000...3_600_000)
        guard clockError == 0 || arguments.value("simulated") != nil else {
            throw UsageError("--simulated-clock-error goes with --simulated", commandPath: commandPath)
        }
        Interrupt.beginHandling()
        var simulators: [CameraSimulator] = []
        defer {
            for simulator in simulators { simulator.stop() }
        }
        let members: [RigMember]
        if arguments.value("simulated") != nil {
            let count = try arguments.integer("simulated", default: 1, in: 1...256)
            for index in 0..<count {
                var configuration = CameraSimulator.Configuration(port: 0, sampleImageCount: 0)
                configuration.deviceInfoChanges = { $0.serialNumber += "-\(name)-\(index)" }
                let simulator = try CameraSimulator(configuration: configuration)
                try simulator.start()
                simulators.append(simulator)
            }
            members = simulators.enumerated().map { index, simulator in
                var transport = PTPIPTransport.Configuration()
                transport.port = simulator.port
                return RigMember(name: "cam\(index)", camera: PTPCamera(host: "127.0.0.1", transport: transport))
            }
        } else if let list = arguments.value("usb") {
            members = try await usbCameras(list, commandPath: commandPath)
        } else {
            members = try await RigTarget(arguments).makeRig(commandPath: commandPath).members
        }
        let rig: CameraRig
        do {
            rig = try CameraRig(members: members)
        } catch let error as ViewfinderError {
            throw UsageError(error.message, commandPath: commandPath)
        }
        let connected = await rig.connect(timeout: .seconds(15))
        for failure in connected.failures {
            Console.print("\(failure.camera): not connected: \(failure.error.message)")
        }
        Console.print("\(connected.successes.count) of \(members.count) cameras connected")

        var configuration = RigAgent.Configuration(
            broker: broker, rig: RigBrokerOptions.rig(arguments), host: name,
            storage: arguments.value("storage") ?? "/var/tmp/viewfinder-rig/\(name)")
        configuration.filesBindAddress = arguments.value("files-bind") ?? "0.0.0.0"
        configuration.filesPort = UInt16(try arguments.integer("files-port", default: 0, in: 0...65535))
        configuration.advertisedAddress = arguments.value("advertise")
        configuration.agentVersion = "viewfinder \(VersionCommand.version)"
        configuration.simulatedClockError = .milliseconds(clockError)
        configuration.log = { Console.print($0) }
        configuration.applySetting = { member, name, value in
            let property = try CameraProperties.named(name, commandPath: "viewfinder rig set")
            do {
                try await property.set(value, on: member.camera)
            } catch let failure as CommandFailure {
                throw ViewfinderError(.invalidPropertyValue, failure.message + (failure.hint.map { " (\($0))" } ?? ""))
            }
            let reading = property.reading(of: member.camera)
            return "\(reading.displayName) is \(reading.value ?? value)"
        }
        let agent: RigAgent
        do {
            agent = try RigAgent(rig: rig, configuration: configuration)
            try agent.start()
        } catch let error as ViewfinderError {
            await rig.disconnect()
            throw CommandFailure(error.message, exitStatus: ExitStatus.unavailable)
        }
        Console.print("agent \(name) of rig \(configuration.rig) runs; Ctrl-C stops it")
        await Interrupt.wait()
        agent.stop()
        await rig.disconnect()
    }

    /// The cameras attached by USB that `list` selects, named cam0, cam1, ….
    private static func usbCameras(_ list: String, commandPath: String) async throws -> [RigMember] {
        var members: [RigMember] = []
        for selector in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            do {
                let camera = try await CameraDiscovery.shared.manualDiscovery.discover(
                    .cameraAttachedByUSB(selector == "any" ? nil : selector))
                members.append(RigMember(name: "cam\(members.count)", camera: camera))
            } catch {
                throw CommandFailure(
                    "no USB camera \(selector): \((error as? ViewfinderError)?.message ?? "\(error)")",
                    hint: "`viewfinder discover` lists the cameras attached by USB.", exitStatus: ExitStatus.unavailable
                )
            }
        }
        return members
    }
}
