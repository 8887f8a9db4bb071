import Foundation
import Viewfinder
import ViewfinderRigNetwork

/// The options of the `rig` commands that work through an MQTT broker: where it is, the rig's name, how to log in.
enum RigBrokerOptions {
    /// The options, for the specs of the commands.
    static let options: [OptionSpec] = [
        .value(
            "broker", "URL",
            help: "The MQTT broker the rig's hosts meet at: mqtt://HOST[:PORT], or mqtts://HOST[:PORT] for TLS."),
        .value("rig", "NAME", help: "The rig's name: its topics are under vf/NAME/.", default: "default"),
        .value("username", "NAME", help: "The user name to log in to the broker with."),
        .value(
            "password-file", "FILE",
            help: "A file whose first line is the password to log in with (a password is never given on the "
                + "command line, where other users see it)."),
        .value(
            "cafile", "FILE", help: "The certificate authorities (PEM) the broker's TLS certificate is checked with."),
        .value("cert", "FILE", help: "This client's certificate (PEM), for a broker that asks for one."),
        .value("key", "FILE", help: "The private key (PEM) of --cert."),
        .flag(
            "tls-any-host-name",
            help: "Accept a broker certificate that does not name the host connected to (still checked against the "
                + "authorities)."),
        .value(
            "keepalive", "SECONDS",
            help: "How often the connection is checked when idle, 5 at least; the broker declares a host gone after "
                + "1.5 times this.",
            default: "5"),
    ]

    /// The broker the options give.
    ///
    /// - Throws: ``UsageError`` for no `--broker`, a URL that is not one, or a password file that cannot be read.
    static func broker(_ arguments: ParsedArguments) throws -> RigBroker {
        let commandPath = arguments.commandPath
        guard let url = arguments.value("broker") else {
            throw UsageError("give the broker with --broker mqtt://HOST[:PORT]", commandPath: commandPath)
        }
        var broker: RigBroker
        do {
            broker = try RigBroker(url: url)
        } catch let error as ViewfinderError {
            throw UsageError("--broker: \(error.message)", commandPath: commandPath)
        }
        broker.username = arguments.value("username")
        if let file = arguments.value("password-file") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw UsageError("--password-file: cannot read \(file)", commandPath: commandPath)
            }
            broker.password = String(text.prefix { $0 != "\n" && $0 != "\r" })
        }
        let files = ["cafile", "cert", "key"].map { arguments.value($0) }
        if files.contains(where: { $0 != nil }) || arguments.flag("tls-any-host-name") {
            broker.tls = RigBroker.TLS(
                certificateAuthorityFile: files[0], certificateFile: files[1], keyFile: files[2],
                allowsMismatchedHostName: arguments.flag("tls-any-host-name"))
        }
        broker.keepAlive = .seconds(try arguments.integer("keepalive", default: 5, in: 5...3600))
        return broker
    }

    /// The rig's name the options give.
    static func rig(_ arguments: ParsedArguments) -> String {
        arguments.value("rig") ?? "default"
    }

    /// Connects a coordinator with the options, logging what it hears on standard error.
    ///
    /// - Throws: ``CommandFailure`` with exit status 69 when the broker is not reached.
    static func connect(_ arguments: ParsedArguments, configure: (inout NetworkRig.Configuration) -> Void = { _ in })
        async throws -> NetworkRig
    {
        var configuration = NetworkRig.Configuration(broker: try broker(arguments), rig: rig(arguments))
        configuration.log = { Console.printToError("rig: \($0)") }
        configure(&configuration)
        let rig: NetworkRig
        do {
            rig = try NetworkRig(configuration: configuration)
        } catch let error as ViewfinderError {
            throw UsageError(error.message, commandPath: arguments.commandPath)
        }
        do {
            try await rig.connect(timeout: .seconds(10))
        } catch {
            throw CommandFailure(
                (error as? ViewfinderError)?.message ?? "\(error)",
                hint: "Check that the broker runs (mosquitto) and listens where --broker says.",
                exitStatus: ExitStatus.unavailable)
        }
        return rig
    }
}
