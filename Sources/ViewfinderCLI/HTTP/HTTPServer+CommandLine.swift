import Foundation
import Viewfinder
import ViewfinderHTTP

extension HTTPServer.Configuration {
    /// The options of the commands that serve pages: where to listen, how many connections, and the names to answer
    /// to.
    static func options(maximumConnections: Int) -> [OptionSpec] {
        [
            .value("port", "PORT", short: "p", help: "The TCP port to serve on; 0 picks a free one.", default: "0"),
            .value(
                "bind", "ADDRESS",
                help: "The numeric address to serve on, such as 0.0.0.0 for every IPv4 interface.",
                default: "127.0.0.1"),
            .value(
                "max-connections", "N",
                help: "How many connections to serve at once, a quarter of them kept for "
                    + "other addresses than the busiest one's.",
                default: "\(maximumConnections)"),
            .value(
                "allow-host", "NAME[,NAME...]",
                help: "Also answer requests that name this machine NAME, such as its name in DNS; requests for other "
                    + "names are refused, so that other sites' pages cannot reach the server by DNS rebinding."),
        ]
    }

    /// The configuration the options of a command line ask for.
    ///
    /// - Throws: ``UsageError`` for a port, connection count or name that is not one.
    init(_ arguments: ParsedArguments, maximumConnections: Int, in range: ClosedRange<Int>) throws {
        self.init()
        bindAddress = arguments.value("bind") ?? bindAddress
        port = UInt16(try arguments.integer("port", default: 0, in: 0...65535))
        self.maximumConnections = try arguments.integer("max-connections", default: maximumConnections, in: range)
        allowedHosts = (arguments.value("allow-host") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if let name = allowedHosts.first(where: { $0.isEmpty || $0.contains { $0 == "/" || $0 == " " } }) {
            throw UsageError(
                "--allow-host takes host names separated by commas, such as camera.local, not '\(name)'",
                commandPath: arguments.commandPath)
        }
    }
}

extension HTTPServer {
    /// Says, on standard error, how other machines reach a server that listens beyond this one: at which addresses,
    /// with the token, and that other names need `--allow-host`.
    func printReachability() {
        guard isReachableFromElsewhere else { return }
        let addresses =
            ["0.0.0.0", "::"].contains(configuration.bindAddress)
            ? MulticastInterface.all().map(\.address) : [configuration.bindAddress]
        let urls = addresses.map { "http://\(Self.urlHost($0)):\(port)/?token=\(token)" }
        Console.printToError(
            "note: the \(name) can be reached from other machines on \(configuration.bindAddress)"
                + (urls.isEmpty ? "" : ", at " + urls.joined(separator: " or "))
                + "; the token keeps out whoever does not have the address, and other names for this machine "
                + "need --allow-host")
    }
}
