/// A shell's completion script for the tool, made from its command tree: commands, options, what their values and
/// arguments are, and what each does.
enum CompletionScript {
    /// The shells there are scripts for, by the names `viewfinder completions` takes.
    static let shells = ["bash", "zsh", "fish"]

    /// The script for `shell` (one of ``shells``), completing the commands below `root`.
    static func render(shell: String, root: any Command.Type) -> String? {
        let tree = CommandTree(root: root)
        switch shell {
        case "bash": return BashCompletion(tree: tree).render()
        case "zsh": return ZshCompletion(tree: tree).render()
        case "fish": return FishCompletion(tree: tree).render()
        default: return nil
        }
    }

    /// Text as one word in single quotes for bash and zsh, each `'` written as `'\''`.
    static func singleQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }

    /// The option's names as typed: the short one, if any, and the long one.
    static func names(of option: OptionSpec) -> [String] {
        (option.short.map { ["-\($0)"] } ?? []) + ["--\(option.name)"]
    }
}
