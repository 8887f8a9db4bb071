import Testing
import ViewfinderTestSupport

/// Help, bad command lines and exit codes of the built tool.
@Suite struct CommandLineTests {
    static let commands = [
        "discover", "camera", "devices", "formats", "controls", "set-control", "capture", "preview", "scan",
        "rig", "remote", "webcam", "demo", "simulate", "completions", "manual", "version",
    ]

    static let cameraCommands = [
        "info", "props", "get", "set", "shoot", "focus", "zoom", "record", "liveview", "files", "download", "watch",
        "timelapse", "bracket", "focus-stack", "tether",
    ]

    @Test(arguments: commands)
    func helpExplainsTheCommandWithExamples(_ command: String) async throws {
        try await onOwnThread {
            let result = try Tool.run(command, "--help")
            #expect(result.status == 0, "\(result)")
            #expect(result.standardOutput.contains("Usage: viewfinder \(command)"), "\(result)")
            #expect(result.standardOutput.contains("Examples:\n  viewfinder \(command)"), "\(result)")
            #expect(result.standardOutput.contains("-h, --help"), "\(result)")
            #expect(result.standardError.isEmpty, "\(result)")
        }
    }

    @Test(arguments: cameraCommands)
    func cameraCommandsExplainThemselvesWithExamples(_ command: String) async throws {
        try await onOwnThread {
            let result = try Tool.run("camera", command, "--help")
            #expect(result.status == 0, "\(result)")
            #expect(result.standardOutput.contains("Usage: viewfinder camera \(command)"), "\(result)")
            #expect(result.standardOutput.contains("Examples:\n  viewfinder camera \(command)"), "\(result)")
            #expect(result.standardOutput.contains("--host HOST[:PORT]"), "\(result)")
            let group = try Tool.run("camera", "--help")
            #expect(group.standardOutput.contains("\n  \(command) "), "\(command) missing from \(group)")
        }
    }

    @Test func topLevelHelpListsEveryCommand() async throws {
        try await onOwnThread {
            for arguments in [["--help"], ["help"]] {
                let result = try ChildProcess.run(Tool.path, arguments)
                #expect(result.status == 0, "\(arguments): \(result)")
                for command in Self.commands {
                    #expect(result.standardOutput.contains("\n  \(command) "), "\(command) missing from \(result)")
                }
            }
            let bare = try Tool.run()
            #expect(bare.status == 64, "\(bare)")
            #expect(bare.standardError.contains("viewfinder needs a command: " + Self.commands.joined(separator: ", ")))
        }
    }

    @Test func helpCommandShowsACommandsHelp() async throws {
        try await onOwnThread {
            let result = try Tool.run("help", "capture")
            #expect(result.status == 0)
            #expect(result.standardOutput.contains("Usage: viewfinder capture [options] DEVICE"), "\(result)")
        }
    }

    /// Bad command lines exit with EX_USAGE (64), say what was wrong, and point at the help.
    @Test(arguments: [
        (["frobnicate"], "there is no command 'frobnicate'"),
        (["devices", "--colour"], "unknown option '--colour'"),
        (["devices", "extra"], "unexpected argument 'extra'"),
        (["formats"], "needs DEVICE"),
        (["controls"], "needs DEVICE"),
        (["set-control", "/dev/video0", "brightness"], "needs VALUE"),
        (["capture", "/dev/video0", "--frames", "0"], "--frames takes a whole number from 1 to 100000, not '0'"),
        (["capture", "/dev/video0", "--frames"], "--frames needs a value (N)"),
        (["capture", "/dev/video0", "--format", "640x"], "'640x' is not a size"),
        (["capture", "/dev/video0", "--format", "640x480/h265"], "'h265' is not a pixel format"),
        (["capture", "/dev/video0", "--format", "640x480@fast"], "'fast' is not a frame rate"),
        (["capture", "/dev/video0", "--quality", "101"], "--quality takes a whole number from 1 to 100"),
        (["preview"], "preview needs DEVICE, or --test-pattern"),
        (["preview", "/dev/video0", "--test-pattern"], "give DEVICE or --test-pattern, not both"),
        (["preview", "--test-pattern", "--port", "70000"], "--port takes a whole number from 0 to 65535"),
        (["preview", "--test-pattern", "--format", "/yuyv"], "the test pattern is NV12 only"),
        (["preview", "--test-pattern", "--format", "@0.0001"], "'0.0001' is not a frame rate from 0.001 to 1000"),
        (["capture", "/dev/video0", "--format", "640x480@1e400"], "'1e400' is not a frame rate"),
        (["demo", "--live-view", "1e300"], "--live-view takes"),
        (["camera", "shoot", "--timeout", "1e300"], "--timeout takes"),
        (["camera", "record", "--seconds", "0"], "--seconds takes"),
        (
            ["simulate", "--identity", "fujifilm"],
            "--identity takes generic, nikon, canon, sony, sony-stepping, fuji, lumix, olympus or sony-remote-api, not 'fujifilm'"
        ),
        (["simulate", "--generated-file", "BIG.BIN"], "--generated-file takes NAME:BYTES"),
        (["simulate", "--usb", "--count", "2"], "--usb runs one camera; leave out --count"),
        (
            ["simulate", "--identity", "sony-remote-api", "--sample-images", "3"],
            "--sample-images is not for --identity sony-remote-api, which takes --bind, --port, --description-path "
                + "and --announce ssdp"
        ),
        (
            ["simulate", "--identity", "sony-remote-api", "--description-path", "dd.xml"],
            "--description-path takes a path such as /DmsRmtDesc.xml, not 'dd.xml'"
        ),
        (
            ["simulate", "--identity", "olympus", "--description-path", "/dd.xml"],
            "--description-path is not for --identity olympus"
        ),
        (
            ["rig", "connect", "--hosts", "127.0.0.1:1,127.0.0.1:2", "--families", "olympus,olympus,olympus"],
            "--families gives 3 families for 2 cameras"
        ),
        (["rig", "connect", "--hosts", "127.0.0.1", "--families", "pentax"], "--family takes nikon, canon, sony"),
        (
            ["simulate", "--identity", "olympus", "--announce", "ssdp"],
            "--announce is not for --identity olympus, which takes --bind, --port and --sample-images"
        ),
        (
            ["simulate", "--identity", "fuji", "--require-pairing", "0"],
            "--require-pairing is for cameras on PTP/IP"
        ),
        (["simulate", "--require-pairing", "soon"], "--require-pairing takes a whole number from 0 to 3600"),
        (["camera", "categories", "--switch", "audio"], "--switch takes stills, files or video, not 'audio'"),
        (["remote", "--hold-lease", "1"], "--hold-lease takes a whole number from 2 to 60, not '1'"),
        (["discover", "--host", "127.0.0.1:0"], "the port is a number from 1 to 65535, not '0'"),
        (["discover", "--host", "camera:http"], "the port is a number from 1 to 65535, not 'http'"),
        (
            ["discover", "--gateway", "--host", "127.0.0.1"],
            "give one of --gateway, --interface, --host, --camera and --usb, not"
        ),
        (["camera", "info", "--family", "pentax"], "--family takes nikon, canon, sony, sony-remote"),
        (["camera", "frobnicate"], "there is no command 'frobnicate'"),
        (["camera", "set", "iso"], "needs VALUE"),
        (["camera", "get", "zoom"], "there is no camera property 'zoom'; the properties are mode, iso, shutter"),
        (["camera", "download"], "download needs HANDLE, or --all"),
        (["camera", "download", "3", "--all"], "give HANDLE or --all, not both"),
        (["camera", "liveview", "--frames", "0"], "--frames takes a whole number from 1 to 100000, not '0'"),
        (["camera", "watch", "--duration", "soon"], "--duration takes a number of seconds"),
        (["preview", "/dev/video0", "--host", "127.0.0.1"], "--host is for a network camera"),
        (["preview", "camera", "--test-pattern"], "a network camera's preview takes neither --format nor"),
    ])
    func badCommandLinesExitWithUsage(_ arguments: [String], _ message: String) async throws {
        try await onOwnThread {
            let result = try ChildProcess.run(Tool.path, arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.standardError.contains(message), "\(arguments): \(result)")
            #expect(result.standardError.contains("--help"), "\(arguments): \(result)")
            #expect(result.standardOutput.isEmpty, "\(arguments): \(result)")
        }
    }

    @Test func versionPrintsTheVersion() async throws {
        try await onOwnThread {
            let result = try Tool.run("version")
            #expect(result.status == 0)
            #expect(result.standardOutput.hasPrefix("viewfinder "), "\(result)")
        }
    }
}
