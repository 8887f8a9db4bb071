import ViewfinderSimulator
import ViewfinderSystem

extension SimulateCommand {
    /// Runs the simulated Lumix (`--identity lumix`) until interrupted: `cam.cgi` on --port (80 unless told
    /// otherwise) and the content directory on --content-port (60606), both on --bind.
    static func runLumix(_ arguments: ParsedArguments) async throws {
        try refuse(
            [
                "count", "usb", "replay", "generated-file", "live-view-picture", "save-captures", "description-path",
            ], in: arguments,
            identity: "lumix", takes: "--bind, --port, --content-port, --sample-images and --announce ssdp")
        let announce = arguments.value("announce")
        guard announce == nil || announce == "ssdp" else {
            throw UsageError(
                "a Lumix announces itself over SSDP alone: --announce ssdp, not '\(announce ?? "")'",
                commandPath: arguments.commandPath)
        }
        var configuration = LumixSimulator.Configuration(
            bindAddress: arguments.value("bind") ?? "127.0.0.1",
            port: UInt16(try arguments.integer("port", default: 80, in: 0...65535)),
            contentPort: UInt16(try arguments.integer("content-port", default: 60606, in: 0...65535)),
            sampleImageCount: try arguments.integer("sample-images", default: 2, in: 0...100),
            log: { Console.print($0) })
        configuration.announces = announce != nil
        let simulator = LumixSimulator(configuration: configuration)
        Interrupt.beginHandling()
        try simulator.start()
        await Interrupt.wait()
        Console.print("stopping")
        // Stopping joins the simulator's threads: off Swift's cooperative pool.
        try await IOThread.run(name: "lumix-stop") { simulator.stop() }
    }
}
