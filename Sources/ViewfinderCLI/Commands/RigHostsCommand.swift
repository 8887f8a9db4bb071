import Foundation
import Viewfinder
import ViewfinderRigNetwork

/// `viewfinder rig hosts`: the hosts of a rig of many hosts, their cameras and their clocks.
enum RigHostsCommand: Command {
    static let spec = CommandSpec(
        name: "hosts",
        abstract: "List the hosts of a rig of many hosts: online or not, their cameras, and how far their clocks are.",
        discussion: """
            Reads every host's record at the broker (retained, so hosts that went offline are listed as such), and \
            measures each online host's clock against this one's over the broker with a few pings, as NTP does: \
            the offset, within half the shortest round trip. The record says what keeps the host's clock (chrony, \
            PTP, another NTP client, or none) and the kernel's own figures.
            """,
        options: RigBrokerOptions.options + RigBrokerCommands.options + [
            .value("pings", "N", help: "How many pings measure each host's clock.", default: "5"), .json,
        ],
        examples: [
            Example(commandLine: "rig hosts --broker mqtt://10.0.0.1", comment: "The hosts of the default rig."),
            Example(
                commandLine: "rig hosts --broker mqtt://10.0.0.1 --rig studio --wait-for 16 --json",
                comment: "Waits for 16 hosts of rig studio, then lists them as JSON."),
        ]
    )

    /// One host, as printed and as JSON.
    struct Record: Encodable {
        var host: String
        var online: Bool
        var agent: String?
        var cameras: [String]
        var clockSource: String?
        var clockSynchronized: Bool?
        var clockOffsetMilliseconds: Double?
        var clockUncertaintyMilliseconds: Double?
        var roundTripMilliseconds: Double?
        var files: String?

        init(_ host: RigHost) {
            self.host = host.name
            online = host.isOnline
            agent = host.agentVersion
            cameras = host.cameras.map { camera in
                var text = camera.name
                if let model = camera.model { text += " \(camera.manufacturer.map { "\($0) " } ?? "")\(model)" }
                return text + (camera.isConnected ? "" : " (not connected)")
            }
            clockSource = host.clock?.source.rawValue
            clockSynchronized = host.clock?.isSynchronized
            clockOffsetMilliseconds = host.clockEstimate.map { $0.offset.inSeconds * 1000 }
            clockUncertaintyMilliseconds = host.clockEstimate.map { $0.uncertainty.inSeconds * 1000 }
            roundTripMilliseconds = host.clockEstimate.map { $0.roundTrip.inSeconds * 1000 }
            files = host.filesURL
        }

        var line: String {
            guard online else { return "\(host)  offline" }
            var clock = "clock \(clockSource ?? "?")\(clockSynchronized == true ? " (synchronised)" : "")"
            if let offset = clockOffsetMilliseconds, let uncertainty = clockUncertaintyMilliseconds {
                clock += String(format: ", %+.2f ms ±%.2f ms from here", offset, uncertainty)
            }
            return "\(host)  online  \(agent ?? "?")  \(cameras.count) cameras: \(cameras.joined(separator: ", "))  "
                + clock
        }
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let pings = try arguments.integer("pings", default: 5, in: 1...100)
        let rig = try await RigBrokerOptions.connect(arguments)
        defer { rig.disconnect() }
        if arguments.value("wait-for") != nil {
            let wanted = try arguments.integer("wait-for", default: 1, in: 1...10_000)
            _ = await rig.waitForHosts(
                count: wanted, timeout: .seconds(try arguments.seconds("wait", default: 10, in: 0...3600)))
        }
        await rig.measureClocks(samples: pings)
        let records = rig.hosts.map(Record.init)
        if arguments.flag("json") {
            try Console.printJSON(records)
        } else if records.isEmpty {
            Console.print("no host of rig \(rig.configuration.rig) has a record at \(rig.configuration.broker.url)")
        } else {
            for record in records { Console.print(record.line) }
        }
    }
}
