/// Every command of the tool with the words that select it, each before its subcommands: what the shell completions
/// and the manual page are made from, so that they say what the parser accepts.
struct CommandTree {
    /// A command and the words that select it.
    struct Node {
        /// The words, from the tool's name, such as `["viewfinder", "camera", "info"]`.
        let path: [String]
        /// The command.
        let command: any Command.Type

        /// The words joined by spaces, as `viewfinder camera info`.
        var commandPath: String { path.joined(separator: " ") }

        /// The command's spec.
        var spec: CommandSpec { command.spec }
    }

    /// The commands, depth first: the root, then each subcommand followed by its own.
    let nodes: [Node]

    /// Collects `root` and the commands below it.
    init(root: any Command.Type) {
        var nodes: [Node] = []
        func visit(_ command: any Command.Type, path: [String]) {
            nodes.append(Node(path: path, command: command))
            for subcommand in command.spec.subcommands {
                visit(subcommand, path: path + [subcommand.spec.name])
            }
        }
        visit(root, path: [root.spec.name])
        self.nodes = nodes
    }
}
