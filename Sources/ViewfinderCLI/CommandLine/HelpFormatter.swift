/// Writes a command's help: what it does, how to call it, its arguments, options, subcommands and examples.
struct HelpFormatter {
    let command: any Command.Type
    let path: [String]

    func render() -> String {
        let spec = command.spec
        let commandPath = path.joined(separator: " ")
        var lines = [
            "\(commandPath): \(spec.abstract)", "", "Usage: " + Self.usage(of: spec, commandPath: commandPath),
        ]
        if !spec.discussion.isEmpty {
            lines += [""] + Self.wrap(spec.discussion)
        }
        if !spec.subcommands.isEmpty {
            lines += ["", "Commands:"]
            lines += table(spec.subcommands.map { ($0.spec.name, $0.spec.abstract) })
        }
        if !spec.arguments.isEmpty {
            lines += ["", "Arguments:"]
            lines += table(spec.arguments.map { ($0.name, $0.help) })
        }
        lines += ["", "Options:"]
        lines += table((spec.options + [.help]).map { (Self.label(of: $0), Self.help(of: $0)) })
        if !spec.examples.isEmpty {
            lines += ["", "Examples:"]
            for example in spec.examples {
                lines.append("  \(path[0]) \(example.commandLine)")
                lines.append("      \(example.comment)")
            }
        }
        if !spec.subcommands.isEmpty {
            lines += ["", "Run '\(commandPath) <command> --help' for a command's options."]
        }
        return lines.joined(separator: "\n")
    }

    /// How to call a command, such as `viewfinder capture [options] DEVICE`.
    static func usage(of spec: CommandSpec, commandPath: String) -> String {
        var usage = commandPath
        if !spec.subcommands.isEmpty { usage += " <command>" }
        if !spec.options.isEmpty { usage += " [options]" }
        for argument in spec.arguments {
            let name = argument.isRepeating ? "\(argument.name)..." : argument.name
            usage += argument.isOptional ? " [\(name)]" : " \(name)"
        }
        return usage
    }

    /// How an option is written, such as `-p, --port PORT`.
    static func label(of option: OptionSpec) -> String {
        var label = option.short.map { "-\($0), " } ?? ""
        label += "--\(option.name)"
        if let valueName = option.valueName { label += " \(valueName)" }
        return label
    }

    /// What an option does, with its default value when it has one.
    static func help(of option: OptionSpec) -> String {
        guard let defaultValue = option.defaultValue else { return option.help }
        return option.help + " (default: \(defaultValue))"
    }

    /// Breaks text into lines of at most `width` characters at spaces, keeping the text's own line breaks.
    static func wrap(_ text: String, width: Int = 100) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph -> [String] in
            var lines: [String] = []
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = ""
                }
                line += line.isEmpty ? String(word) : " " + word
            }
            return lines + [line]
        }
    }

    private func table(_ rows: [(String, String)]) -> [String] {
        let width = min(rows.map(\.0.count).max() ?? 0, 28)
        return rows.map { name, help in
            if name.count > width {
                return "  \(name)\n  \(String(repeating: " ", count: width))  \(help)"
            }
            return "  \(name)\(String(repeating: " ", count: width - name.count))  \(help)"
        }
    }
}
