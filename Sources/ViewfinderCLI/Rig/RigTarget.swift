import Foundation
import Viewfinder
import ViewfinderSystem

/// The cameras of a `viewfinder rig` command, from the options the rig commands share: `--hosts`, `--names` and
/// `--families`.
///
/// ```swift
/// let target = try RigTarget(arguments)
/// try await target.withConnectedRig { rig in
///     await rig.fireShutters()
/// }
/// ```
struct RigTarget {
    /// The options, for the specs of the rig commands.
    static let options: [OptionSpec] = [
        .value(
            "hosts", "LIST",
            help: "The cameras, as HOST[:PORT] separated by commas; HOST:PORT+N is N cameras on consecutive ports "
                + "from PORT."),
        .value(
            "names", "LIST",
            help: "The cameras' names, separated by commas, in the order of --hosts (cam0, cam1, … by default)."),
        .value(
            "families", "LIST",
            help: "The cameras' kinds, as --family takes them, separated by commas, in the order of --hosts; one "
                + "for them all (generic, any PTP/IP camera, by default)."),
        .value(
            "connect-timeout", "SECONDS", help: "How long each camera may take to connect.", default: "15"),
    ]

    /// One camera's address, and its kind.
    struct Address: Equatable, CustomStringConvertible {
        var host: String
        /// The port; `nil` for the usual port of a camera that speaks HTTP (a PTP/IP camera's is 15740).
        var port: UInt16?
        var family: CameraFamily = .genericPTPIP

        var description: String { CameraAddress.network(host: host, port: port).description }
    }

    /// The families whose cameras speak HTTP on a port of their own rather than PTP/IP on 15740.
    private static let familiesOverHTTP: Set<CameraFamily> = [.olympus, .panasonic, .sonyRemoteAPI]

    /// The cameras' names and addresses, in order.
    let cameras: [(name: String, address: Address)]
    /// How long each camera may take to connect.
    let connectTimeout: Duration

    /// Reads the rig options of a command line.
    ///
    /// - Throws: ``UsageError`` for no `--hosts`, a malformed entry, names that do not match the cameras, or a rig
    ///   of more than 1000 cameras.
    init(_ arguments: ParsedArguments) throws {
        let commandPath = arguments.commandPath
        guard let list = arguments.value("hosts") else {
            throw UsageError(
                "give the rig's cameras with --hosts, such as --hosts 10.0.0.5,10.0.0.6", commandPath: commandPath)
        }
        var addresses: [Address] = []
        for entry in list.split(separator: ",", omittingEmptySubsequences: false) {
            let entry = entry.trimmingCharacters(in: .whitespaces)
            var hostPart = Substring(entry)
            var count = 1
            if let plus = entry.lastIndex(of: "+") {
                guard let number = Int(entry[entry.index(after: plus)...]), (1...1000).contains(number) else {
                    throw UsageError(
                        "--hosts: '\(entry)' ends in +N, where N is from 1 to 1000 cameras", commandPath: commandPath)
                }
                count = number
                hostPart = entry[..<plus]
            }
            let (host, port) = try CameraTarget.hostAndPort(String(hostPart), commandPath: commandPath)
            let first = Int(port ?? PTPIPCameraConnector.standardPort)
            guard first + count - 1 <= 65535 else {
                throw UsageError("--hosts: '\(entry)' goes past port 65535", commandPath: commandPath)
            }
            // The port stays unsaid for one camera without one, until its family is known.
            addresses += (0..<count).map {
                Address(host: host, port: port == nil && count == 1 ? nil : UInt16(first + $0))
            }
            guard addresses.count <= 1000 else {
                throw UsageError("a rig takes at most 1000 cameras", commandPath: commandPath)
            }
        }
        var names = (0..<addresses.count).map { "cam\($0)" }
        if let given = arguments.value("names") {
            names = given.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard names.count == addresses.count else {
                throw UsageError(
                    "--names gives \(names.count) names for \(addresses.count) cameras", commandPath: commandPath)
            }
        }
        if let given = arguments.value("families") {
            let families = try given.split(separator: ",", omittingEmptySubsequences: false).map {
                try CameraTarget.family($0.trimmingCharacters(in: .whitespaces), commandPath: commandPath)
            }
            guard families.count == 1 || families.count == addresses.count else {
                throw UsageError(
                    "--families gives \(families.count) families for \(addresses.count) cameras; give one for each, "
                        + "or one for them all", commandPath: commandPath)
            }
            for index in addresses.indices {
                addresses[index].family = families.count == 1 ? families[0] : families[index]
            }
        }
        for index in addresses.indices
        where addresses[index].port == nil && !Self.familiesOverHTTP.contains(addresses[index].family) {
            addresses[index].port = PTPIPCameraConnector.standardPort
        }
        cameras = Array(zip(names, addresses))
        connectTimeout = .seconds(try arguments.seconds("connect-timeout", default: 15, in: 0.1...600))
    }

    /// Fails when a command line gives both `--broker` and `--hosts`: a rig is one or the other.
    static func refuseHosts(with arguments: ParsedArguments) throws {
        guard arguments.value("hosts") == nil else {
            throw UsageError(
                "give --hosts for cameras driven from here, or --broker for a rig of many hosts, not both",
                commandPath: arguments.commandPath)
        }
    }

    /// Makes the rig, not yet connected: each camera as its family's connector makes it at its address.
    ///
    /// - Throws: ``UsageError`` for names a rig cannot take or the same address twice.
    func makeRig(commandPath: String) async throws -> CameraRig {
        var seen: Set<String> = []
        for camera in cameras where !seen.insert(camera.address.description).inserted {
            throw UsageError("--hosts names \(camera.address) twice", commandPath: commandPath)
        }
        do {
            var members: [RigMember] = []
            for camera in cameras {
                let address = camera.address
                let made = try await CameraDiscovery.shared.manualDiscovery.discover(
                    .cameraType(address.family, atAddress: address.host, port: address.port))
                members.append(RigMember(name: camera.name, camera: made))
            }
            return try CameraRig(members: members)
        } catch let error as ViewfinderError {
            throw UsageError(error.message, commandPath: commandPath)
        }
    }

    /// The address of the camera named `name`.
    func address(of name: String) -> Address? {
        cameras.first { $0.name == name }?.address
    }

    /// Connects the rig, runs `body` with the cameras that connected, and disconnects them all.
    ///
    /// Cameras that fail to connect are left out of `body`'s rig; their failures come first in the result's list.
    ///
    /// - Throws: ``CommandFailure`` with exit status 69 when no camera connects.
    func withConnectedRig<Result>(
        commandPath: String, _ body: (CameraRig, _ connectFailures: [RigOutcomeRecord]) async throws -> Result
    ) async throws -> Result {
        let rig = try await makeRig(commandPath: commandPath)
        let report = await rig.connect(timeout: connectTimeout)
        let failures = report.outcomes.compactMap { outcome -> RigOutcomeRecord? in
            guard case .failure = outcome.result else { return nil }
            return RigOutcomeRecord(outcome, address: address(of: outcome.camera))
        }
        // The report lists the cameras in the rig's order.
        let connected = zip(rig.members, report.outcomes).filter { _, outcome in
            if case .success = outcome.result { true } else { false }
        }.map(\.0)
        guard !connected.isEmpty else {
            throw CommandFailure(
                "no camera of the rig connected: "
                    + failures.map { "\($0.camera) (\($0.address)): \($0.error ?? "failed")" }.joined(separator: "; "),
                hint: "Check the addresses with 'viewfinder camera info --host HOST:PORT'.",
                exitStatus: ExitStatus.unavailable)
        }
        let result: Result
        do {
            result = try await body(try CameraRig(members: connected), failures)
        } catch {
            await rig.disconnect()
            throw error
        }
        await rig.disconnect()
        return result
    }
}
