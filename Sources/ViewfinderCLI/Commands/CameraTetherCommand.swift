import Foundation
import Viewfinder

/// `viewfinder camera tether`: saves every picture the camera takes as it is taken, and runs a command for each.
enum CameraTetherCommand: Command {
    static let spec = CommandSpec(
        name: "tether",
        abstract: "Save every picture the camera takes as it arrives, and run a command for each, until Ctrl-C.",
        discussion: """
            Downloads each file the camera reports as new (a picture taken with the camera's own button, or by \
            another program) into --download DIR as it arrives, streamed to disk; a file appears under its name \
            only once complete, and a name already in DIR gets -2, -3… rather than replacing the earlier file. \
            With --exec COMMAND, /bin/sh runs COMMAND for each file with the file's path as $1, one at a time, \
            each stopped after --exec-timeout seconds. Runs until Ctrl-C (exit code 0), --duration seconds or \
            --count files; exits with 69 when the camera goes away.
            """,
        options: CameraTarget.options + [
            .value("download", "DIR", short: "d", help: "Where to save the files.", default: "."),
            .value("duration", "SECONDS", help: "Stop after this many seconds instead of waiting for Ctrl-C."),
            .value("count", "N", help: "Stop after saving this many files."),
            .value("exec", "COMMAND", help: "Run COMMAND with /bin/sh for each file saved, its path as $1."),
            .value("exec-timeout", "SECONDS", help: "Stop a command that runs longer than this.", default: "60"),
            .flag("json", help: "Print each event as a JSON object on a line of its own."),
        ],
        examples: [
            Example(commandLine: "camera tether --download shoot", comment: "Saves every picture in ./shoot."),
            Example(
                commandLine: "camera tether -d shoot --exec 'xdg-open \"$1\"'",
                comment: "Saves each picture and opens it."),
        ]
    )

    static func run(_ arguments: ParsedArguments) async throws {
        let directory = try OutputDirectory(arguments.value("download") ?? ".")
        let duration = try arguments.value("duration").map { _ in
            try arguments.seconds("duration", default: 0, in: 0.1...31_536_000)
        }
        let count = try arguments.value("count").map { _ in
            try arguments.integer("count", default: 1, in: 1...1_000_000)
        }
        let command = arguments.value("exec")
        let commandTimeout = try arguments.seconds("exec-timeout", default: 60, in: 0.1...86_400)
        let tethering = Tethering(
            directory: directory.path, duration: duration.map { .seconds($0) }, maximumFiles: count)
        var progress = AutomationProgress(json: arguments.flag("json"), endsWithCtrlC: true, showsWaits: false)
        if let command {
            progress.afterSaving = { path in
                let status = try await run(command, for: path, timeout: .seconds(commandTimeout))
                var record = AutomationEventRecord(event: "commandFinished")
                record.command = command
                record.path = path
                record.status = status
                record.text = status == 0 ? nil : "  the command for \(path) exited with \(status)"
                return record
            }
        }
        try await CameraTarget(arguments).withConnectedCamera { camera in
            if !progress.json {
                Console.printToError("Saving the camera's new pictures into \(directory.path); Ctrl-C stops.")
            }
            try await progress.show(tethering.start(on: camera))
        }
    }

    /// Runs `command` with /bin/sh, `path` as its `$1`, and returns its exit status once it ends; one that runs
    /// longer than `timeout` is stopped with SIGTERM and reports 128 + 15.
    ///
    /// - Throws: ``CommandFailure`` when /bin/sh cannot be started.
    static func run(_ command: String, for path: String, timeout: Duration) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command, "viewfinder-tether", path]
        let (ended, continuation) = AsyncStream.makeStream(of: Int32.self, bufferingPolicy: .bufferingOldest(1))
        process.terminationHandler = { continuation.yield($0.terminationStatus) }
        do {
            try process.run()
        } catch {
            throw CommandFailure("cannot run /bin/sh for --exec: \(error)")
        }
        let processID = process.processIdentifier
        let deadline = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            kill(processID, SIGTERM)
        }
        defer { deadline.cancel() }
        for await status in ended {
            return process.terminationReason == .uncaughtSignal ? 128 + status : status
        }
        return ExitStatus.interrupted
    }
}
