/// A command line checked against a command's spec: its options' values and its positional arguments.
struct ParsedArguments {
    /// The words that selected the command, such as `viewfinder camera info`.
    let commandPath: String
    private let values: [String: [String]]
    private let flags: Set<String>
    /// The positional arguments, in order.
    let positionals: [String]

    init(commandPath: String, values: [String: [String]], flags: Set<String>, positionals: [String]) {
        self.commandPath = commandPath
        self.values = values
        self.flags = flags
        self.positionals = positionals
    }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// The last value given for an option, if any.
    func value(_ name: String) -> String? {
        values[name]?.last
    }

    /// Every value given for an option, in order.
    func allValues(_ name: String) -> [String] {
        values[name] ?? []
    }

    /// The value of an option as an integer within `range`, or `defaultValue` when absent.
    func integer(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws -> Int {
        guard let text = value(name) else { return defaultValue }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                "--\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'",
                commandPath: commandPath)
        }
        return number
    }

    /// The value of an option as a number of seconds within `range`, or `defaultValue` when absent.
    func seconds(_ name: String, default defaultValue: Double, in range: ClosedRange<Double>) throws -> Double {
        guard let text = value(name) else { return defaultValue }
        guard let number = Double(text), range.contains(number) else {
            throw UsageError(
                "--\(name) takes a number of seconds from \(range.lowerBound) to \(range.upperBound), not '\(text)'",
                commandPath: commandPath)
        }
        return number
    }

    /// The positional argument at `index`; a usage error names it when it is missing.
    func positional(_ index: Int, named name: String) throws -> String {
        guard index < positionals.count else {
            throw UsageError("\(commandPath) needs \(name)", commandPath: commandPath)
        }
        return positionals[index]
    }
}

/// A command line that does not fit the command: said with what was wrong and where to read more.
struct UsageError: Error, CustomStringConvertible {
    /// What was wrong.
    let message: String
    /// The command whose help explains it.
    let commandPath: String

    init(_ message: String, commandPath: String) {
        self.message = message
        self.commandPath = commandPath
    }

    var description: String { "\(message)\nSee '\(commandPath) --help'." }
}
