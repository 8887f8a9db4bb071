/// The zsh completion script: a function that finds the command on the line the way the parser does, then describes
/// that command's subcommands and hands its options and arguments to `_arguments`, with their help.
struct ZshCompletion {
    let tree: CommandTree

    func render() -> String {
        let root = tree.nodes[0].commandPath
        var lines = [
            "#compdef \(root)",
            "# zsh completion for \(root), made by '\(root) completions zsh' from the tool's own commands.",
            "",
            "# Sets reply to the subcommands of command $1, as NAME:DESCRIPTION.",
            "_\(root)_subcommands() {",
            "    case $1 in",
        ]
        for node in tree.nodes where !node.spec.subcommands.isEmpty {
            let entries = node.spec.subcommands.map { Self.quoted("\($0.spec.name):\($0.spec.abstract)") }
            lines.append("    (\(Self.quoted(node.commandPath))) reply=(\(entries.joined(separator: " "))) ;;")
        }
        lines += [
            "    (*) reply=() ;;",
            "    esac",
            "}",
            "",
            "# Completes the words of the command on the line: the words after the tool's name select a command while",
            "# each names a subcommand of the one before, as the tool reads them; the rest are the command's own.",
            "_\(root)() {",
            "    local command=\(root) ret=1",
            "    local -a reply",
            "    integer index=2",
            "    while (( index < CURRENT )); do",
            "        _\(root)_subcommands $command",
            "        (( ${reply[(I)${(b)words[index]}:*]} )) || break",
            "        command+=\" $words[index]\"",
            "        (( index++ ))",
            "    done",
            "    words=(\"${(@)words[index-1,-1]}\")",
            "    (( CURRENT -= index - 2 ))",
            "    if (( CURRENT == 2 )); then",
            "        _\(root)_subcommands $command",
            "        (( $#reply )) && _describe -t commands \"$command command\" reply && ret=0",
            "    fi",
            "    case $command in",
        ]
        for node in tree.nodes {
            lines.append("    (\(Self.quoted(node.commandPath)))")
            lines.append("        _arguments -S : \\")
            for spec in (node.spec.options + [.help]).map(Self.spec(of:)) + node.spec.arguments.map(Self.spec(of:)) {
                lines.append("            \(spec) \\")
            }
            lines.append("            && ret=0")
            lines.append("        ;;")
        }
        lines += [
            "    esac",
            "    return ret",
            "}",
            "",
            "# Loaded from fpath, the file is the function's body: complete now. Sourced, register the function.",
            "if [[ $funcstack[1] == _\(root) ]]; then",
            "    _\(root) \"$@\"",
            "else",
            "    compdef _\(root) \(root)",
            "fi",
        ]
        return lines.joined(separator: "\n")
    }

    /// An option as `_arguments` takes it: `--help` excludes everything else, an option with a short name excludes
    /// its other name, and an option with a value has the placeholder as its message and the value's completion.
    private static func spec(of option: OptionSpec) -> String {
        let description = "[\(escaped(option.help, also: "[]"))]"
        let value = option.valueName.map { ":\(escaped($0)):\(action(for: ValueKind(placeholder: $0)))" } ?? ""
        let long = "--\(option.name)" + (option.valueName == nil ? "" : "=")
        if option.name == OptionSpec.help.name {
            return "'(- *)'{-h,--help}" + quoted(description)
        }
        guard let short = option.short else { return quoted(long + description + value) }
        return "'(-\(short) --\(option.name))'{-\(short),\(long)}" + quoted(description + value)
    }

    /// A positional argument as `_arguments` takes it: optional ones with two colons, a repeating one with `*`.
    private static func spec(of argument: ArgumentSpec) -> String {
        let prefix = argument.isRepeating ? "*:" : argument.isOptional ? "::" : ":"
        return quoted(prefix + escaped(argument.name) + ":" + action(for: ValueKind(placeholder: argument.name)))
    }

    /// How `_arguments` completes a value of this kind; a space offers nothing but shows the placeholder.
    private static func action(for kind: ValueKind) -> String {
        switch kind {
        case .words(let words): "(\(words.joined(separator: " ")))"
        case .files: "_files"
        case .directories: "_files -/"
        case .text: " "
        }
    }

    /// Text for a part of an `_arguments` spec, with backslashes, colons and the given characters escaped.
    private static func escaped(_ text: String, also characters: String = "") -> String {
        var result = ""
        for character in text {
            if character == "\\" || character == ":" || characters.contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    private static func quoted(_ text: String) -> String {
        CompletionScript.singleQuoted(text)
    }
}
