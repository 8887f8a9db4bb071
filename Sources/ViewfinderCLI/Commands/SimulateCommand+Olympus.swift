import ViewfinderSimulator
import ViewfinderSystem

extension SimulateCommand {
    /// Runs the simulated Olympus (`--identity olympus`) until interrupted: its commands on --port (80 unless told
    /// otherwise) on --bind.
    static func runOlympus(_ arguments: ParsedArguments) async throws {
        try refuse(
            [
                "count", "usb", "replay", "generated-file", "live-view-picture", "save-captures", "content-port",
                "announce", "description-path",
            ],
            in: arguments, identity: "olympus", takes: "--bind, --port and --sample-images")
        let simulator = try OlympusSimulator(
            configuration: .init(
                bindAddress: arguments.value("bind") ?? "127.0.0.1",
                port: UInt16(try arguments.integer("port", default: 80, in: 0...65535)),
                sampleImageCount: try arguments.integer("sample-images", default: 2, in: 0...100),
                log: { Console.print($0) }))
        Interrupt.beginHandling()
        try simulator.start()
        await Interrupt.wait()
        Console.print("stopping")
        // Stopping joins the simulator's thread: off Swift's cooperative pool.
        try await IOThread.run(name: "olympus-stop") { simulator.stop() }
    }

    /// Refuses the options in `options` that `arguments` holds: they are for the PTP identities, and `identity`
    /// takes only what `takes` says.
    static func refuse(
        _ options: [String], in arguments: ParsedArguments, identity: String, takes: String
    ) throws {
        for option in options where arguments.value(option) != nil || arguments.flag(option) {
            throw UsageError(
                "--\(option) is not for --identity \(identity), which takes \(takes)",
                commandPath: arguments.commandPath)
        }
    }
}
