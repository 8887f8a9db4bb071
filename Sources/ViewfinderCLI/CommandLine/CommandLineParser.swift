/// What the command line asks for: a command to run with its arguments, or help to print.
enum ParsedCommandLine {
    /// Run `command` with `arguments`.
    case run(any Command.Type, ParsedArguments)
    /// Print the help of `command`, selected by `path`.
    case help(any Command.Type, path: [String])
}

/// Selects a command from the words of a command line and checks the rest against its spec.
struct CommandLineParser {
    let root: any Command.Type

    func parse(_ words: [String]) throws -> ParsedCommandLine {
        if words.first == "help" {
            let (command, path, rest) = select(Array(words.dropFirst()))
            if let word = rest.first {
                throw UsageError("there is no command '\(word)'", commandPath: path.joined(separator: " "))
            }
            return .help(command, path: path)
        }
        let (command, path, rest) = select(words)
        let commandPath = path.joined(separator: " ")
        if !command.spec.subcommands.isEmpty, let word = rest.first, !word.hasPrefix("-") {
            let names = command.spec.subcommands.map { $0.spec.name }.joined(separator: ", ")
            throw UsageError("there is no command '\(word)' (commands: \(names))", commandPath: commandPath)
        }
        guard let arguments = try parseArguments(rest, of: command.spec, commandPath: commandPath) else {
            return .help(command, path: path)
        }
        return .run(command, arguments)
    }

    /// Follows subcommand names from the root; returns the command, the words that named it, and the rest.
    private func select(_ words: [String]) -> (any Command.Type, [String], [String]) {
        var command = root
        var path = [root.spec.name]
        var index = 0
        while index < words.count, let next = subcommand(named: words[index], of: command) {
            command = next
            path.append(words[index])
            index += 1
        }
        return (command, path, Array(words[index...]))
    }

    private func subcommand(named name: String, of command: any Command.Type) -> (any Command.Type)? {
        for subcommand in command.spec.subcommands where subcommand.spec.name == name {
            return subcommand
        }
        return nil
    }

    /// Checks options and positionals against `spec`; `nil` when help was asked for.
    private func parseArguments(_ words: [String], of spec: CommandSpec, commandPath: String) throws
        -> ParsedArguments?
    {
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []
        var optionsEnded = false
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if optionsEnded || !isOption(word) {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            if word == "--help" || word == "-h" {
                return nil
            }
            let (name, inlineValue) = split(word)
            guard let option = spec.options.first(where: { $0.name == name || $0.short.map { String($0) } == name })
            else {
                throw UsageError("unknown option '\(word)'", commandPath: commandPath)
            }
            guard let valueName = option.valueName else {
                guard inlineValue == nil else {
                    throw UsageError("--\(option.name) takes no value", commandPath: commandPath)
                }
                flags.insert(option.name)
                continue
            }
            var value = inlineValue
            if value == nil, index < words.count {
                value = words[index]
                index += 1
            }
            guard let value else {
                throw UsageError("--\(option.name) needs a value (\(valueName))", commandPath: commandPath)
            }
            values[option.name, default: []].append(value)
        }
        try checkPositionals(positionals, of: spec, commandPath: commandPath)
        return ParsedArguments(commandPath: commandPath, values: values, flags: flags, positionals: positionals)
    }

    /// Splits `--name=value` into its name and value, and strips the dashes of `--name` and `-n`.
    private func split(_ word: String) -> (name: String, value: String?) {
        guard word.hasPrefix("--") else { return (String(word.dropFirst()), nil) }
        let body = word.dropFirst(2)
        guard let equals = body.firstIndex(of: "=") else { return (String(body), nil) }
        return (String(body[..<equals]), String(body[body.index(after: equals)...]))
    }

    /// Whether a word is an option rather than a value; `-1/3` and `-0.7` are values.
    private func isOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        let second = word[word.index(after: word.startIndex)]
        return !(second.isNumber || second == ".")
    }

    private func checkPositionals(_ positionals: [String], of spec: CommandSpec, commandPath: String) throws {
        let required = spec.arguments.filter { !$0.isOptional }
        if positionals.count < required.count {
            let missing = required[positionals.count...].map(\.name).joined(separator: " ")
            throw UsageError("\(commandPath) needs \(missing)", commandPath: commandPath)
        }
        if positionals.count > spec.arguments.count, spec.arguments.last?.isRepeating != true {
            let extra = positionals[spec.arguments.count...].joined(separator: " ")
            throw UsageError("unexpected argument '\(extra)'", commandPath: commandPath)
        }
    }
}
