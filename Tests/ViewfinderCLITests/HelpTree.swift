import ViewfinderTestSupport

/// The tool's commands as its `--help` describes them, read by running it: what the completion scripts and the
/// manual page are checked against.
struct HelpTree {
    /// A command, as its help lists it.
    struct Command {
        /// The words that select it, such as `["viewfinder", "camera", "info"]`.
        var path: [String]
        /// The names of its subcommands.
        var subcommands: [String]
        /// The long names of its options with their dashes, `--help` included.
        var options: [String]
        /// The placeholders of its arguments.
        var arguments: [String]
    }

    /// The built tool's commands, read once for the tests that need them.
    static let tool = Result { try HelpTree() }

    /// Every command, each before its subcommands.
    let commands: [Command]

    /// Reads the help of the tool and of each command below it.
    init() throws {
        var commands: [Command] = []
        var paths = [["viewfinder"]]
        while let path = paths.first {
            paths.removeFirst()
            let result = try Tool.run(Array(path.dropFirst()) + ["--help"])
            guard result.status == 0 else { throw TestFailure("\(path.joined(separator: " ")) --help: \(result)") }
            let sections = Self.sections(of: result.standardOutput)
            let command = Command(
                path: path,
                subcommands: (sections["Commands:"] ?? []).map { String($0.prefix { $0 != " " }) },
                options: (sections["Options:"] ?? []).compactMap { name in
                    name.split(separator: " ").first { $0.hasPrefix("--") }.map(String.init)
                },
                arguments: sections["Arguments:"] ?? [])
            commands.append(command)
            paths += command.subcommands.map { path + [$0] }
        }
        self.commands = commands
    }

    /// The first column of each table in the help, by its heading: rows start with two spaces, and the name ends
    /// at two spaces or with the line.
    private static func sections(of help: String) -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var heading: String?
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix(":") && !line.hasPrefix(" ") {
                heading = String(line)
            } else if line.isEmpty {
                heading = nil
            } else if let heading, line.hasPrefix("  "), line.dropFirst(2).first != " " {
                let row = line.dropFirst(2)
                let name = row.range(of: "  ").map { row[..<$0.lowerBound] } ?? row
                sections[heading, default: []].append(String(name))
            }
        }
        return sections
    }
}
