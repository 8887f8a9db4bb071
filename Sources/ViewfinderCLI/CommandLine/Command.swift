/// A command of the `viewfinder` tool: what it is called, what it accepts, and what it does.
///
/// A command declares its options and arguments in ``CommandSpec``; the parser checks the command line against
/// them, answers `--help`, and hands the command a ``ParsedArguments``. A command with subcommands lists them and
/// leaves ``run(_:)`` to the default, which prints its help.
protocol Command: Sendable {
    /// The command's name, options, arguments, help text and subcommands.
    static var spec: CommandSpec { get }

    /// Does the command's work; throws ``UsageError`` for a command line that makes no sense, anything else for a
    /// failure.
    static func run(_ arguments: ParsedArguments) async throws
}

extension Command {
    static func run(_ arguments: ParsedArguments) async throws {
        let names = spec.subcommands.map { $0.spec.name }.joined(separator: ", ")
        throw UsageError("\(arguments.commandPath) needs a command: \(names)", commandPath: arguments.commandPath)
    }
}

/// What a command accepts and how it explains itself.
struct CommandSpec: Sendable {
    /// The word that selects the command, such as `simulate`.
    var name: String
    /// One line that says what the command does.
    var abstract: String
    /// Longer help, shown under the usage lines.
    var discussion: String = ""
    /// The options the command takes, besides `--help`.
    var options: [OptionSpec] = []
    /// The positional arguments, in order.
    var arguments: [ArgumentSpec] = []
    /// Example command lines with a comment each.
    var examples: [Example] = []
    /// Commands below this one.
    var subcommands: [any Command.Type] = []
}

/// An option: a flag such as `--json`, or an option with a value such as `--port 15740`.
struct OptionSpec: Sendable {
    /// The long name without dashes, such as `port`.
    var name: String
    /// A one-letter short name, if any.
    var short: Character? = nil
    /// The placeholder for the value, such as `PORT`; `nil` for a flag.
    var valueName: String? = nil
    /// What the option does.
    var help: String
    /// The value used when the option is absent, shown in help.
    var defaultValue: String? = nil

    /// A flag: present or absent.
    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, help: help)
    }

    /// An option that takes a value.
    static func value(
        _ name: String, _ valueName: String, short: Character? = nil, help: String, default defaultValue: String? = nil
    ) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help, defaultValue: defaultValue)
    }

    /// The `--json` flag of commands whose output is data.
    static let json = OptionSpec.flag("json", help: "Print the output as JSON.")

    /// The `--help` flag every command takes, which the parser answers itself.
    static let help = OptionSpec.flag("help", short: "h", help: "Show this help.")
}

/// A positional argument.
struct ArgumentSpec: Sendable {
    /// The placeholder, such as `DEVICE`.
    var name: String
    /// What the argument is.
    var help: String
    /// Whether the command runs without it.
    var isOptional: Bool = false
    /// Whether it takes every remaining word.
    var isRepeating: Bool = false
}

/// An example command line for help output.
struct Example: Sendable {
    /// The command line, without the tool's name.
    var commandLine: String
    /// What it does.
    var comment: String
}
