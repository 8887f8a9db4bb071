/// `viewfinder completions SHELL`: prints the tool's completion script for bash, zsh or fish.
enum CompletionsCommand: Command {
    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            The script completes every command, its options with their help, and the values that name files, \
            directories or one of a few words. It is made from the tool's own commands, so it matches the \
            version that printed it. 'make install' and the Debian package install the scripts where each shell \
            finds them; to try one without installing, load it into the running shell.
            """,
        arguments: [
            ArgumentSpec(name: CompletionScript.shells.joined(separator: "|"), help: "The shell to complete for.")
        ],
        examples: [
            Example(commandLine: "completions bash", comment: "Prints the bash completion script."),
            Example(
                commandLine: "completions bash > ~/.local/share/bash-completion/completions/viewfinder",
                comment: "Installs it for the user; bash-completion loads it when 'viewfinder' is first completed."),
            Example(commandLine: "completions fish | source", comment: "Loads the fish completions into fish."),
            Example(
                commandLine: "completions zsh > ~/.zfunc/_viewfinder",
                comment: "Installs it for zsh, with ~/.zfunc in fpath before compinit runs."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let shell = try arguments.positional(0, named: spec.arguments[0].name)
        guard let script = CompletionScript.render(shell: shell, root: RootCommand.self) else {
            let shells = CompletionScript.shells.joined(separator: ", ")
            throw UsageError(
                "there is no completion script for '\(shell)' (shells: \(shells))", commandPath: arguments.commandPath)
        }
        Console.print(script)
    }
}
