/// `viewfinder manual`: prints the tool's manual page.
enum ManualCommand: Command {
    static let spec = CommandSpec(
        name: "manual",
        abstract: "Print the manual page, viewfinder(1), for man to show.",
        discussion: """
            The page describes every command with its arguments, options and examples, as their --help does, and \
            the exit statuses. It is made from the tool's own commands, so it matches the version that printed it. \
            'make install' and the Debian package install it as viewfinder(1).
            """,
        examples: [
            Example(commandLine: "manual | man -l -", comment: "Shows the manual page without installing it."),
            Example(commandLine: "manual > viewfinder.1", comment: "Writes it to a file, in roff."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        Console.print(ManualPage(tree: CommandTree(root: RootCommand.self), version: VersionCommand.version).render())
    }
}
