/// Writes a command's help: what it does, how to call it, its arguments, options, subcommands and examples.
struct HelpFormatter {
    let command: any Command.Type
    let path: [String]

    func render() -> String {
        let spec = command.spec
        let commandPath = path.joined(separator: " ")
        var lines = ["\(commandPath): \(spec.abstract)", ""]
        var usage = "Usage: \(commandPath)"
        if !spec.subcommands.isEmpty { usage += " <command>" }
        if !spec.options.isEmpty { usage += " [options]" }
        for argument in spec.arguments {
            let name = argument.isRepeating ? "\(argument.name)..." : argument.name
            usage += argument.isOptional ? " [\(name)]" : " \(name)"
        }
        lines.append(usage)
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
        var options = spec.options.map { option -> (String, String) in
            var name = option.short.map { "-\($0), " } ?? ""
            name += "--\(option.name)"
            if let valueName = option.valueName { name += " \(valueName)" }
            var help = option.help
            if let defaultValue = option.defaultValue { help += " (default: \(defaultValue))" }
            return (name, help)
        }
        options.append(("-h, --help", "Show this help."))
        lines += table(options)
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
