import Foundation
import Testing
import ViewfinderTestSupport

/// The completion scripts of `viewfinder completions`, loaded into bash, zsh and fish and asked to complete command
/// lines: every command and option the help lists is offered where it may come, and values as their kind says.
@Suite struct ShellCompletionTests {
    /// Lines whose completions say how values are completed, in a directory with a `shots` directory and a
    /// `notes.txt` file, with what must be offered and what must not.
    static let valueLines: [(line: String, offered: Set<String>, notOffered: Set<String>)] = [
        ("viewfinder completions ", ["bash", "zsh", "fish"], []),
        ("viewfinder simulate --identity ", ["generic", "nikon", "canon"], ["shots"]),
        ("viewfinder capture /dev/video0 --out ", ["shots"], ["notes.txt", "--out"]),
        ("viewfinder simulate --live-view-picture ", ["shots", "notes.txt"], []),
        ("viewfinder capture ", ["shots", "notes.txt"], ["camera"]),
        ("viewfinder demo --out shots --live-view ", [], ["shots", "notes.txt", "--out"]),
        ("viewfinder camera ", ["info", "shoot", "download"], ["notes.txt"]),
        ("viewfinder camera info --h", ["--host", "--help"], ["--json"]),
    ]

    @Test(arguments: ["bash", "zsh", "fish"])
    func everyCommandAndOptionIsOffered(_ shell: String) async throws {
        try await onOwnThread { try checkEveryCommandAndOption(shell: shell) }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func valuesAreCompletedByTheirKind(_ shell: String) async throws {
        try await onOwnThread {
            let offered = try Completer(shell: shell).complete(Self.valueLines.map(\.line))
            for (line, expected, unexpected) in Self.valueLines {
                let words = Set(offered[line] ?? [])
                #expect(expected.isSubset(of: words), "\(shell), '\(line)': \(words.sorted())")
                #expect(unexpected.isDisjoint(with: words), "\(shell), '\(line)': \(words.sorted())")
            }
        }
    }

    @Test func bashRegistersTheFunctionForTheTool() async throws {
        try await onOwnThread {
            let completer = try Completer(shell: "bash")
            let result = try ChildProcess.run(
                "/bin/bash", ["-c", "source \"$0\" && complete -p viewfinder", completer.script])
            #expect(result.status == 0 && result.standardError.isEmpty, "\(result)")
            #expect(result.standardOutput == "complete -F _viewfinder viewfinder\n", "\(result)")
        }
    }

    @Test func zshAndFishReadTheirScriptsWithoutErrors() async throws {
        try await onOwnThread {
            for shell in ["zsh", "fish"] {
                let completer = try Completer(shell: shell)
                let result = try ChildProcess.run(try Completer.executable(shell), ["-n", completer.script])
                #expect(result.status == 0 && result.standardError.isEmpty, "\(shell) -n: \(result)")
            }
        }
    }

    @Test func anUnknownShellIsAUsageError() async throws {
        try await onOwnThread {
            let result = try Tool.run("completions", "tcsh")
            #expect(result.status == 64, "\(result)")
            #expect(result.standardError.contains("no completion script for 'tcsh' (shells: bash, zsh, fish)"))
        }
    }

    /// Completes, for each command, the word after its name (where its subcommands come) and `--` (its options):
    /// the subcommands offered are the help's, and the options offered are exactly the help's.
    private func checkEveryCommandAndOption(shell: String) throws {
        let tree = try HelpTree.tool.get()
        #expect(tree.commands.count > 30)
        var lines: [String] = []
        for command in tree.commands {
            let path = command.path.joined(separator: " ")
            lines += [path + " ", path + " --"]
        }
        let offered = try Completer(shell: shell).complete(lines)
        for command in tree.commands {
            let path = command.path.joined(separator: " ")
            let words = Set(offered[path + " "] ?? [])
            #expect(Set(command.subcommands).isSubset(of: words), "\(shell), '\(path) ': \(words.sorted())")
            let options = Set(offered[path + " --"] ?? [])
            #expect(options == Set(command.options), "\(shell), '\(path) --'")
        }
    }
}

/// A shell with the tool's completion script loaded, asked to complete lines in a scratch directory that holds a
/// `shots` directory and a `notes.txt` file.
private struct Completer {
    let shell: String
    let directory: ScratchDirectory
    /// The completion script's path.
    let script: String

    init(shell: String) throws {
        self.shell = shell
        directory = try ScratchDirectory()
        // zsh loads a completion function from a file named after it, in a directory on its fpath.
        script = directory.path + (shell == "zsh" ? "/_viewfinder" : "/completion." + shell)
        let result = try Tool.run("completions", shell)
        guard result.status == 0 else { throw TestFailure("viewfinder completions \(shell): \(result)") }
        try result.standardOutput.write(toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            atPath: directory.path + "/work/shots", withIntermediateDirectories: true)
        try "notes".write(toFile: directory.path + "/work/notes.txt", atomically: true, encoding: .utf8)
    }

    /// The shell's path; zsh and fish are among the test dependencies (`make test-deps`).
    static func executable(_ shell: String) throws -> String {
        for directory in ["/usr/bin", "/bin"] where access("\(directory)/\(shell)", X_OK) == 0 {
            return "\(directory)/\(shell)"
        }
        throw TestFailure("\(shell) is not installed; 'make test-deps' installs it")
    }

    /// The words the shell offers for each line, completed at its end.
    func complete(_ lines: [String]) throws -> [String: [String]] {
        let driver = directory.path + "/driver." + shell
        try Self.drivers[shell]!.write(toFile: driver, atomically: true, encoding: .utf8)
        // fish reads the user's configuration even for a script, unless told not to.
        let options = shell == "fish" ? ["--no-config"] : []
        let result = try ChildProcess.run(
            try Self.executable(shell), options + [driver, script, directory.path + "/work"] + lines,
            timeout: .seconds(300))
        guard result.status == 0 else { throw TestFailure("\(shell) completing: \(result)") }
        var offered: [String: [String]] = [:]
        var line: String?
        for output in result.standardOutput.split(separator: "\n") {
            if output.hasPrefix("== ") {
                line = String(output.dropFirst(3))
                offered[line!] = []
            } else if let line {
                // fish writes a description after a tab; a directory may end with a slash.
                var word = output.prefix { $0 != "\t" }
                if word.hasSuffix("/") { word = word.dropLast() }
                offered[line]!.append(String(word))
            }
        }
        for missing in lines where offered[missing] == nil {
            throw TestFailure("\(shell) did not complete '\(missing)': \(result)")
        }
        return offered
    }

    /// Scripts that load the completion script ($1), go to the directory ($2), and complete each further argument,
    /// printing `== LINE` and then the words offered, one a line.
    private static let drivers = [
        "bash": #"""
        source "$1"
        cd "$2"
        shift 2
        for line in "$@"; do
            read -r -a COMP_WORDS <<<"$line"
            [[ $line == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            COMPREPLY=()
            _viewfinder
            printf '%s\n' "== $line" "${COMPREPLY[@]}"
        done
        """#,
        "fish": #"""
        source $argv[1]
        cd $argv[2]
        for line in $argv[3..-1]
            echo "== $line"
            complete -C "$line"
        end
        """#,
        // zsh completes only in its line editor: an interactive zsh on a pseudo-terminal (zpty) gets each line and
        // a tab, with compadd wrapped to print each match it adds, no list of matches (which could stop to ask
        // whether to show it), and a function after each completion that marks its end (and sets itself again, as
        // the completion system empties the list); Ctrl-U clears the line for the next.
        "zsh": #"""
        zmodload zsh/zpty
        script=$1 directory=$2
        shift 2
        zpty shell zsh -f -i
        zpty -w shell "PROMPT= ; fpath=(${script:h} \$fpath); autoload -Uz compinit; compinit -u -D; cd $directory"
        zpty -w shell 'compadd() { local -a m; builtin compadd -A m "$@"; builtin compadd "$@"; print -rl -- "<match>"${^m}; }'
        zpty -w shell 'unsetopt autolist; bindkey "^I" complete-word; finished() { print -r -- "<end>"; comppostfuncs=(finished); }; comppostfuncs=(finished)'
        zpty -w shell 'print "<ready>"'
        zpty -r shell output '*<ready>*<ready>*'
        for line in "$@"; do
            zpty -w -n shell $'\C-u'"$line"$'\t'
            zpty -r shell output '*<end>*'
            print -r -- "== $line"
            for row in ${(f)output}; do
                [[ $row == *'<match>'* ]] && print -r -- ${${row#*<match>}%$'\r'}
            done
        done
        zpty -d shell
        """#,
    ]
}
