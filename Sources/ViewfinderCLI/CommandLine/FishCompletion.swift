/// The fish completion script: functions that find the command on the line the way the parser does, and a
/// `complete` line for each subcommand, option and argument, on the condition that the line selects its command.
struct FishCompletion {
    let tree: CommandTree

    func render() -> String {
        let root = tree.nodes[0].commandPath
        var lines = [
            "# fish completion for \(root), made by '\(root) completions fish' from the tool's own commands.",
            "",
            "# Prints the subcommands of command $argv[1], one a line.",
            "function __\(root)_subcommands",
            "    switch $argv[1]",
        ]
        for node in tree.nodes where !node.spec.subcommands.isEmpty {
            lines += [
                "        case \(Self.quoted(node.commandPath))",
                "            printf '%s\\n' \(node.spec.subcommands.map { $0.spec.name }.joined(separator: " "))",
            ]
        }
        lines += [
            "    end",
            "end",
            "",
            "# Prints the options of command $argv[1] that take a value, one a line.",
            "function __\(root)_valued",
            "    switch $argv[1]",
        ]
        for node in tree.nodes where node.spec.options.contains(where: { $0.valueName != nil }) {
            let names = node.spec.options.filter { $0.valueName != nil }.flatMap(CompletionScript.names)
            lines += [
                "        case \(Self.quoted(node.commandPath))",
                "            printf '%s\\n' \(names.joined(separator: " "))",
            ]
        }
        lines += ["    end", "end", "", Self.functions, "", "complete -c \(root) -f"]
        for node in tree.nodes {
            let condition = { (position: String) in
                "-n " + Self.quoted("__\(root)_at \(Self.quoted(node.commandPath))" + position)
            }
            for subcommand in node.spec.subcommands {
                let line = "complete -c \(root) \(condition(" selecting")) -a \(subcommand.spec.name)"
                lines.append(line + " -d \(Self.quoted(subcommand.spec.abstract))")
            }
            for option in node.spec.options + [.help] {
                var line = "complete -c \(root) \(condition(""))"
                if let short = option.short { line += " -s \(short)" }
                line += " -l \(option.name)"
                if let valueName = option.valueName {
                    line += " " + Self.arguments(for: ValueKind(placeholder: valueName), ofOption: true)
                }
                lines.append(line + " -d \(Self.quoted(option.help))")
            }
            for (index, argument) in node.spec.arguments.enumerated() {
                let kind = ValueKind(placeholder: argument.name)
                guard kind != .text else { continue }
                let position = " \(index + 1)" + (argument.isRepeating ? "+" : "")
                lines.append("complete -c \(root) \(condition(position)) " + Self.arguments(for: kind, ofOption: false))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What `complete` offers for a value of this kind; an option's value is required (`-r`), and only files are
    /// offered as files.
    private static func arguments(for kind: ValueKind, ofOption isOption: Bool) -> String {
        switch kind {
        case .words(let words): (isOption ? "-x " : "") + "-a \(quoted(words.joined(separator: " ")))"
        case .files: (isOption ? "-r " : "") + "-F"
        case .directories: (isOption ? "-x " : "") + "-a '(__fish_complete_directories)'"
        case .text: "-x"
        }
    }

    /// Text as one word in fish's single quotes, in which `\` and `'` are escaped with a backslash.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }

    /// The functions the conditions call: they follow subcommand names from the start of the line while each names
    /// one (as the parser does), skip options and their values, and count the arguments; the result is kept for the
    /// line, as every condition asks for it.
    private static let functions = """
        # Prints the command the line before the cursor selects, 1 when the cursor is right after its name (where a
        # subcommand may come), and the position of the argument at the cursor (0 for an option's value).
        function __viewfinder_state
            set -l line (commandline -pc)
            if test "$line" = "$__viewfinder_state_line"
                printf '%s\\n' $__viewfinder_state_cache
                return
            end
            set -l command viewfinder
            set -l selecting 1
            set -l ended 0
            set -l pending 0
            set -l position 1
            for word in (commandline -opc)[2..-1]
                if test $pending = 1
                    set pending 0
                else if test $selecting = 1; and contains -- $word (__viewfinder_subcommands $command)
                    set command "$command $word"
                else if test $ended = 0; and test $word = --
                    set selecting 0
                    set ended 1
                else if test $ended = 0; and string match -qr -- '^-[^0-9.]' $word
                    set selecting 0
                    contains -- $word (__viewfinder_valued $command); and set pending 1
                else
                    set selecting 0
                    set position (math $position + 1)
                end
            end
            test $pending = 1; and set position 0
            set -g __viewfinder_state_line $line
            set -g __viewfinder_state_cache $command $selecting $position
            printf '%s\\n' $__viewfinder_state_cache
        end

        # Whether the line selects command $argv[1]; with `selecting`, also whether a subcommand may come at the
        # cursor; with N (or N+), whether the cursor is at the command's Nth argument (or a later one).
        function __viewfinder_at
            set -l state (__viewfinder_state)
            test "$state[1]" = "$argv[1]"; or return 1
            switch "$argv[2]"
                case ''
                    return 0
                case selecting
                    test $state[2] = 1
                case '*+'
                    test $state[3] -ge (string trim -r -c + -- $argv[2])
                case '*'
                    test $state[3] = $argv[2]
            end
        end
        """
}
