import ViewfinderSimulator
import ViewfinderSystem

extension SimulateCommand {
    /// Runs the simulated Sony Camera Remote API body (`--identity sony-remote-api`) until interrupted: its
    /// description and calls on --port (8080 unless told otherwise) on --bind, live view on a free port beside it.
    static func runSonyRemote(_ arguments: ParsedArguments) async throws {
        try refuse(
            [
                "count", "usb", "replay", "generated-file", "live-view-picture", "save-captures", "content-port",
                "announce", "sample-images",
            ],
            in: arguments, identity: "sony-remote-api", takes: "--bind and --port")
        let simulator = SonyRemoteSimulator(
            configuration: .init(
                bindAddress: arguments.value("bind") ?? "127.0.0.1",
                port: UInt16(try arguments.integer("port", default: 8080, in: 0...65535)),
                log: { Console.print($0) }))
        Interrupt.beginHandling()
        let port = try simulator.start()
        Console.print("description at http://\(simulator.configuration.bindAddress):\(port)/dd.xml")
        await Interrupt.wait()
        Console.print("stopping")
        // Stopping joins the simulator's threads: off Swift's cooperative pool.
        try await IOThread.run(name: "sony-remote-stop") { simulator.stop() }
    }
}
