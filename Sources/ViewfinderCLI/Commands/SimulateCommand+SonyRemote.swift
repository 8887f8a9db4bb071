import ViewfinderSimulator
import ViewfinderSystem

extension SimulateCommand {
    /// Runs the simulated Sony Camera Remote API body (`--identity sony-remote-api`) until interrupted: its
    /// description (at --description-path, /dd.xml unless told otherwise) and calls on --port (8080 unless told
    /// otherwise) on --bind, live view on a free port beside it, announced over SSDP with --announce ssdp.
    static func runSonyRemote(_ arguments: ParsedArguments) async throws {
        try refuse(
            [
                "count", "usb", "replay", "generated-file", "live-view-picture", "save-captures", "content-port",
                "sample-images",
            ],
            in: arguments, identity: "sony-remote-api", takes: "--bind, --port, --description-path and --announce ssdp")
        let announce = arguments.value("announce")
        guard announce == nil || announce == "ssdp" else {
            throw UsageError(
                "a Camera Remote API body announces itself over SSDP alone: --announce ssdp, not '\(announce ?? "")'",
                commandPath: arguments.commandPath)
        }
        var configuration = SonyRemoteSimulator.Configuration(
            bindAddress: arguments.value("bind") ?? "127.0.0.1",
            port: UInt16(try arguments.integer("port", default: 8080, in: 0...65535)),
            log: { Console.print($0) })
        configuration.announces = announce != nil
        if let path = arguments.value("description-path") {
            guard path.hasPrefix("/"), !path.contains(where: { $0.isWhitespace || $0 == "?" || $0 == "#" }) else {
                throw UsageError(
                    "--description-path takes a path such as /DmsRmtDesc.xml, not '\(path)'",
                    commandPath: arguments.commandPath)
            }
            configuration.descriptionPath = path
        }
        let simulator = SonyRemoteSimulator(configuration: configuration)
        Interrupt.beginHandling()
        let port = try simulator.start()
        Console.print(
            "description at http://\(HostPort.text(simulator.configuration.bindAddress, port: port))"
                + simulator.configuration.descriptionPath)
        await Interrupt.wait()
        Console.print("stopping")
        // Stopping joins the simulator's threads: off Swift's cooperative pool.
        try await IOThread.run(name: "sony-remote-stop") { simulator.stop() }
    }
}
