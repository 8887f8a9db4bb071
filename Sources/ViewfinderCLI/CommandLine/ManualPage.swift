/// The tool's manual page, viewfinder(1), in the roff that man(1) reads: every command with its usage, what it does,
/// its arguments, options and examples, taken from the same specs as `--help`, and the exit statuses.
struct ManualPage {
    let tree: CommandTree
    /// The tool's version, for the page's footer.
    let version: String

    func render() -> String {
        let root = tree.nodes[0]
        var lines = [
            #".\" The manual page of \#(root.commandPath), made by '\#(root.commandPath) manual' from its own help."#,
            ".TH \(Self.escaped(root.commandPath.uppercased())) 1 \"\" \(Self.argument("\(root.commandPath) \(version)")) \"User Commands\"",
            ".nh",
            ".ad l",
            ".SH NAME",
            "\(Self.escaped(root.commandPath)) \\- \(Self.escaped(Self.sentence(root.spec.abstract)))",
            ".SH SYNOPSIS",
            ".B \(Self.escaped(root.commandPath))",
            ".I command",
            ".RI [ options ]",
            ".RI [ arguments ]",
            ".SH DESCRIPTION",
            Self.escaped(root.spec.abstract),
            ".PP",
            Self.escaped(
                "Its commands are listed here; the COMMANDS section says how to call each, what it does, its "
                    + "arguments, options and examples, as '\(root.commandPath) COMMAND --help' does."),
        ]
        lines += Self.list(root.spec.subcommands)
        lines.append(".SH COMMANDS")
        for node in tree.nodes.dropFirst() {
            lines += section(node)
        }
        lines += [".SH \"EXIT STATUS\""]
        for (status, meaning) in ExitStatus.meanings {
            lines += [".TP", ".B \(status)", Self.escaped(meaning)]
        }
        lines += [
            ".SH FILES",
            ".TP",
            ".I lib/udev/rules.d/60\\-viewfinder.rules",
            Self.escaped(
                "The udev rule installed with the tool (under /usr from the Debian package, under /usr/local from "
                    + "'make install'): it gives the user logged in at the machine access to USB cameras with a "
                    + "still-image interface (class 6, subclass 1, protocol 1). Run 'udevadm control --reload' after "
                    + "installing it and plug the camera in again."),
            ".SH \"SEE ALSO\"",
            ".BR gphoto2 (1),",
            ".BR v4l2\\-ctl (1),",
            ".BR udev (7)",
        ]
        return lines.joined(separator: "\n")
    }

    /// A command's section: its usage as the heading, what it does, then its subcommands, arguments, options and
    /// examples, as its help lists them.
    private func section(_ node: CommandTree.Node) -> [String] {
        let spec = node.spec
        var lines = [
            ".SS \(Self.argument(HelpFormatter.usage(of: spec, commandPath: node.commandPath)))",
            Self.escaped(spec.abstract),
        ]
        if !spec.discussion.isEmpty {
            lines += [".PP"] + Self.paragraphs(spec.discussion)
        }
        if !spec.subcommands.isEmpty {
            lines += [".PP", "Commands:"] + Self.list(spec.subcommands)
        }
        if !spec.arguments.isEmpty {
            lines += [".PP", "Arguments:"]
            for argument in spec.arguments {
                lines += [".TP", ".I \(Self.argument(argument.name))", Self.escaped(argument.help)]
            }
        }
        lines += [".PP", "Options:"]
        for option in spec.options + [.help] {
            var label = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
            label += "\\fB\\-\\-\(Self.escaped(option.name))\\fR"
            if let valueName = option.valueName {
                // A list of choices may break after each bar (`\\:`), as a long one does not fit a line.
                label += " \\fI\(Self.escaped(valueName).replacing("|", with: "|\\:"))\\fR"
            }
            lines += [".TP", label, Self.escaped(HelpFormatter.help(of: option))]
        }
        if !spec.examples.isEmpty {
            lines += [".PP", "Examples:"]
            for example in spec.examples {
                lines += [
                    ".TP", ".B \(Self.argument("\(node.path[0]) \(example.commandLine)"))",
                    Self.escaped(example.comment),
                ]
            }
        }
        return lines
    }

    /// Commands by name, each with its one-line summary.
    private static func list(_ commands: [any Command.Type]) -> [String] {
        commands.flatMap { [".TP", ".B \(escaped($0.spec.name))", escaped($0.spec.abstract)] }
    }

    /// Help text as roff: an empty line starts a new paragraph, and the text's other line breaks are kept.
    private static func paragraphs(_ text: String) -> [String] {
        var lines: [String] = []
        var isParagraphStart = true
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy(\.isWhitespace) {
                lines.append(".PP")
                isParagraphStart = true
                continue
            }
            if !isParagraphStart { lines.append(".br") }
            lines.append(escaped(String(line.drop { $0 == " " })))
            isParagraphStart = false
        }
        return lines
    }

    /// Text with roff's special characters escaped: backslashes, hyphens (so that options print as typed), and a
    /// control character at the start of a line.
    static func escaped(_ text: String) -> String {
        var result = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    /// Text as one argument of a macro: escaped and in double quotes, a double quote in it written `\(dq`.
    private static func argument(_ text: String) -> String {
        "\"" + escaped(text).replacing("\"", with: "\\(dq") + "\""
    }

    /// The abstract as the NAME line's description: without its full stop, starting in lowercase.
    private static func sentence(_ text: String) -> String {
        var text = text.hasSuffix(".") ? String(text.dropLast()) : text
        if let first = text.first { text = first.lowercased() + text.dropFirst() }
        return text
    }
}
