import Foundation
import Testing
import ViewfinderTestSupport

/// The manual page of `viewfinder manual`: every command and option the help lists, in roff that man renders without
/// a warning.
@Suite struct ManualPageTests {
    @Test func everyCommandHasASectionWithEveryOption() async throws {
        try await onOwnThread {
            let page = try Self.page()
            let tree = try HelpTree.tool.get()
            let sections = Self.sections(of: page)
            for command in tree.commands.dropFirst() {
                let path = command.path.joined(separator: " ").replacing("-", with: "\\-")
                let section = sections.first { $0.hasPrefix(".SS \"\(path) ") || $0.hasPrefix(".SS \"\(path)\"") }
                guard let section else {
                    Issue.record("no section for \(path)")
                    continue
                }
                for option in command.options {
                    let written = "\\fB" + option.replacing("-", with: "\\-") + "\\fR"
                    #expect(section.contains(written), "\(path) has no \(option)")
                }
                for subcommand in command.subcommands {
                    #expect(
                        section.contains(".B \(subcommand.replacing("-", with: "\\-"))\n"), "\(path): \(subcommand)")
                }
            }
            let synopsis = tree.commands[0].subcommands.map { ".B \($0.replacing("-", with: "\\-"))\n" }
            #expect(synopsis.allSatisfy { sections[0].contains($0) }, "the description lists the commands")
            #expect(page.contains(".SH \"EXIT STATUS\"\n.TP\n.B 0\n") && page.contains(".B 64\n"))
        }
    }

    @Test func manRendersThePageWithoutWarnings() async throws {
        try await onOwnThread {
            let directory = try ScratchDirectory()
            let file = directory.path + "/viewfinder.1"
            try Self.page().write(toFile: file, atomically: true, encoding: .utf8)
            // As lintian checks manual pages: man's warnings on, UTF-8, 80 columns.
            let environment = ["MANWIDTH": "80", "LC_ALL": "C.UTF-8"]
            let checked = try ChildProcess.run(
                "/usr/bin/man", ["--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", file], environment: environment)
            #expect(checked.status == 0 && checked.standardError.isEmpty, "\(checked.standardError)")
            let rendered = try ChildProcess.run("/usr/bin/man", ["-l", file], environment: environment)
            #expect(rendered.status == 0, "\(rendered)")
            #expect(rendered.standardOutput.contains("VIEWFINDER(1)"))
            #expect(rendered.standardOutput.contains("viewfinder camera info [options]"))
            #expect(rendered.standardOutput.contains("--live-view-picture FILE"), "options print with ASCII dashes")
            // The NAME line is what apropos and whatis read.
            let whatis = try ChildProcess.run("/usr/bin/lexgrog", [file])
            #expect(whatis.standardOutput.contains(": \"viewfinder - cameras on Linux: "), "\(whatis)")
        }
    }

    private static func page() throws -> String {
        let result = try Tool.run("manual")
        guard result.status == 0, result.standardError.isEmpty else {
            throw TestFailure("viewfinder manual: \(result)")
        }
        return result.standardOutput
    }

    /// The page cut before each `.SS` heading: the part before the first, then each command's section.
    private static func sections(of page: String) -> [String] {
        page.components(separatedBy: "\n.SS ").enumerated().map { $0.offset == 0 ? $0.element : ".SS " + $0.element }
    }
}
