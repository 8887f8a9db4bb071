import Foundation
import Viewfinder
import ViewfinderRigNetwork

/// What `rig set` and `rig shoot` do with `--broker`: the same work on the cameras of every host of a rig of many
/// hosts, through a ``NetworkRig``.
enum RigBrokerCommands {
    /// The options `rig set` and `rig shoot` take for a rig of many hosts, besides the broker's.
    static let options: [OptionSpec] = [
        .value(
            "wait-for", "N",
            help: "With --broker, first wait up to --wait seconds for N hosts to be online (all known hosts by "
                + "default)."),
        .value("wait", "SECONDS", help: "With --broker, how long to wait for the hosts.", default: "10"),
    ]

    /// The options only `rig shoot` takes for a rig of many hosts.
    static let shootOptions: [OptionSpec] = [
        .value(
            "lead", "MS",
            help: "With --broker, how far ahead the shutters' instant is: the fire must reach every host before it.",
            default: "250"),
        .value("take", "NAME", help: "With --broker, the take's name (from the date and time by default)."),
        .value(
            "max-clock-offset", "MS",
            help: "With --broker, leave out a host whose clock is off by more than this (beyond the measurement's "
                + "uncertainty).",
            default: "5"),
    ]

    /// `rig set NAME VALUE --broker URL`.
    static func set(_ arguments: ParsedArguments, property: String, value: String, timeout: Duration) async throws {
        let rig = try await connect(arguments)
        defer { rig.disconnect() }
        let report: RigReport<String>
        do {
            report = try await rig.setValue(value, forProperty: property, timeout: timeout)
        } catch let error as ViewfinderError {
            throw CommandFailure(error.message, exitStatus: ExitStatus.unavailable)
        }
        try RigOutcomeRecord.finish(
            report.outcomes.map { outcome in
                RigOutcomeRecord(outcome, address: host(of: outcome.camera)) { $0 }
            }, json: arguments.flag("json"))
    }

    /// `rig shoot --broker URL [--download DIR]`.
    static func shoot(
        _ arguments: ParsedArguments, directory: OutputDirectory?, focus: Bool, timeout: Duration
    ) async throws {
        let lead = Duration.milliseconds(try arguments.integer("lead", default: 250, in: 1...600_000))
        let offset = try arguments.integer("max-clock-offset", default: 5, in: 0...3_600_000)
        let take = arguments.value("take")
        let rig = try await connect(arguments) { $0.maximumClockOffset = .milliseconds(offset) }
        defer { rig.disconnect() }
        let records: [RigOutcomeRecord]
        let spread: Duration
        do {
            if let directory {
                let report = try await rig.capturePictures(
                    into: directory.path, take: take, lead: lead, engagingAutoFocus: focus, timeout: timeout)
                spread = report.requestSpread
                records = report.outcomes.map { outcome in
                    RigOutcomeRecord(outcome, address: host(of: outcome.camera)) { capture in
                        "saved " + capture.files.map(\.path).joined(separator: ", ")
                    } files: { capture in
                        capture.files.map(\.path)
                    }
                }
            } else {
                let report = try await rig.fireShutters(lead: lead, engagingAutoFocus: focus, timeout: timeout)
                spread = report.requestSpread
                records = report.outcomes.map { outcome in
                    RigOutcomeRecord(outcome, address: host(of: outcome.camera)) { release in
                        String(
                            format: "took a picture in %.0f ms",
                            release.requested.duration(to: release.completed).inSeconds * 1000)
                    }
                }
            }
        } catch let error as ViewfinderError {
            throw CommandFailure(error.message, exitStatus: ExitStatus.unavailable)
        }
        try RigOutcomeRecord.finish(
            records, json: arguments.flag("json"),
            summary: String(
                format: "Shutter requests went out within %.2f ms of each other (each host's clock)",
                spread.inSeconds * 1000))
    }

    /// Connects a coordinator and waits for the hosts the options ask for.
    ///
    /// - Throws: ``CommandFailure`` with exit status 69 when no host is online.
    static func connect(
        _ arguments: ParsedArguments, configure: (inout NetworkRig.Configuration) -> Void = { _ in }
    ) async throws -> NetworkRig {
        let rig = try await RigBrokerOptions.connect(arguments, configure: configure)
        let known = rig.hosts.count
        let wanted = try arguments.integer("wait-for", default: max(known, 1), in: 1...10_000)
        let seconds = try arguments.seconds("wait", default: 10, in: 0...3600)
        let online = await rig.waitForHosts(count: wanted, timeout: .seconds(seconds))
        guard !online.isEmpty else {
            rig.disconnect()
            throw CommandFailure(
                "no host of rig \(rig.configuration.rig) is online at \(rig.configuration.broker.url)",
                hint: "Start 'viewfinder rig agent --broker URL --name NAME' on each host.",
                exitStatus: ExitStatus.unavailable)
        }
        if online.count < wanted {
            Console.printToError("rig: \(online.count) of \(wanted) hosts are online; going on with them")
        }
        return rig
    }

    /// The host part of a camera's name in a rig of many hosts (`h03` of `h03/cam1`).
    static func host(of camera: String) -> String {
        String(camera.prefix { $0 != "/" })
    }
}
