/// The bash completion script: a table of each command's subcommands, options and arguments, and a function that
/// finds the command on the line the way the parser does and offers what may come next.
struct BashCompletion {
    let tree: CommandTree

    func render() -> String {
        let root = tree.nodes[0].commandPath
        var lines = [
            "# bash completion for \(root), made by '\(root) completions bash' from the tool's own commands.",
            "",
            "# Sets the tables of command $1: its subcommands, its options, what each option's value is (text, files,",
            "# directories or words:WORD...), what its arguments are by position, and whether the last repeats.",
            "_\(root)_command() {",
            "    case $1 in",
        ]
        for node in tree.nodes {
            let spec = node.spec
            let options = spec.options + [.help]
            let values = options.filter { $0.valueName != nil }.flatMap { option in
                CompletionScript.names(of: option).map {
                    "[\($0)]=" + Self.word(for: ValueKind(placeholder: option.valueName!))
                }
            }
            lines += [
                "    \(CompletionScript.singleQuoted(node.commandPath)))",
                "        subcommands=(\(spec.subcommands.map { $0.spec.name }.joined(separator: " ")))",
                "        options=(\(options.flatMap(CompletionScript.names).joined(separator: " ")))",
                "        values=(\(values.joined(separator: " ")))",
                "        arguments=(\(spec.arguments.map { Self.word(for: ValueKind(placeholder: $0.name)) }.joined(separator: " ")))",
                "        repeating=\(spec.arguments.last?.isRepeating == true ? 1 : 0)",
                "        ;;",
            ]
        }
        lines += ["    esac", "}", ""]
        return (lines + [Self.functions]).joined(separator: "\n")
    }

    /// How the table writes a value's kind.
    private static func word(for kind: ValueKind) -> String {
        switch kind {
        case .words(let words): CompletionScript.singleQuoted("words:" + words.joined(separator: " "))
        case .files: "files"
        case .directories: "directories"
        case .text: "text"
        }
    }

    /// The functions that read the table: they follow subcommand names from the start of the line while each names
    /// one (as the parser does), skip options and their values (also `--out=DIR`, which bash splits at `=`), count
    /// the arguments, and offer the value of the option before the cursor, the options, or the subcommands and the
    /// argument at the cursor.
    private static let functions = """
        # Adds the values that $1 (text, files, directories or words:WORD...) stands for, starting with $cur.
        _viewfinder_offer() {
            case $1 in
            files)
                compopt -o filenames 2>/dev/null
                mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
                ;;
            directories)
                compopt -o filenames 2>/dev/null
                mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur")
                ;;
            words:*)
                mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -W "${1#words:}" -- "$cur")
                ;;
            esac
        }

        _viewfinder() {
            local cur=${COMP_WORDS[COMP_CWORD]} command=viewfinder word pending= selecting=1 ended=0 position=0 i
            local -a subcommands options arguments
            local -A values
            local repeating
            COMPREPLY=()
            _viewfinder_command "$command"
            for ((i = 1; i < COMP_CWORD; i++)); do
                word=${COMP_WORDS[i]}
                if [[ -n $pending ]]; then
                    [[ $word == = ]] || pending=
                elif ((selecting)) && [[ " ${subcommands[*]} " == *" $word "* ]]; then
                    command+=" $word"
                    _viewfinder_command "$command"
                elif ((!ended)) && [[ $word == -- ]]; then
                    selecting=0 ended=1
                elif ((!ended)) && [[ $word == -[!0-9.]* ]]; then
                    selecting=0
                    [[ -n ${values[$word]+set} ]] && pending=$word
                else
                    selecting=0
                    ((position++))
                fi
            done
            if [[ -n $pending ]]; then
                [[ $cur == = ]] && cur=
                _viewfinder_offer "${values[$pending]}"
            elif ((!ended)) && [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "${options[*]}" -- "$cur")
            else
                ((selecting)) && mapfile -t COMPREPLY < <(compgen -W "${subcommands[*]}" -- "$cur")
                if ((position < ${#arguments[@]})); then
                    _viewfinder_offer "${arguments[position]}"
                elif ((repeating)); then
                    _viewfinder_offer "${arguments[-1]}"
                fi
            fi
        }

        complete -F _viewfinder viewfinder
        """
}
