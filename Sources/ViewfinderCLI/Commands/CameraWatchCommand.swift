import Foundation
import Viewfinder

/// `viewfinder camera watch`: prints the camera's property changes and new files as they happen.
enum CameraWatchCommand: Command {
    static let spec = CommandSpec(
        name: "watch",
        abstract: "Print property changes and new files as the camera reports them, until Ctrl-C.",
        discussion: """
            Prints a line for each change the camera reports: a property's new value (turning a dial, or the \
            camera adjusting by itself), a change of the values a property can be set to (after a mode change), \
            and each new file on the card. Stops after --duration seconds, or on Ctrl-C, and exits with 0; exits \
            with 69 when the camera goes away. With --json each change is a JSON object on a line of its own.
            """,
        options: CameraTarget.options + [
            .value("duration", "SECONDS", help: "Stop after this many seconds instead of waiting for Ctrl-C."),
            .flag("json", help: "Print each change as a JSON object on a line of its own."),
        ],
        examples: [
            Example(commandLine: "camera watch", comment: "Prints changes until Ctrl-C."),
            Example(
                commandLine: "camera watch --duration 60 --json > changes.jsonl",
                comment: "A minute of changes as JSON lines."),
        ]
    )

    /// Something the camera reported, or the end of watching.
    private enum Event: Sendable {
        case property(PropertyReading)
        case newFile(CameraFileItem)
        case disconnected(CameraDisconnection?)
        case finished
    }

    /// A change as `--json` prints it.
    private struct Change: Encodable {
        var time: String
        var property: String?
        var value: String?
        var previousValue: String?
        var settableValues: [String]?
        var newFile: CameraFileRecord?
    }

    static func run(_ arguments: ParsedArguments) async throws {
        let duration = try arguments.value("duration").map { _ in
            try arguments.seconds("duration", default: 0, in: 0.1...31_536_000)
        }
        let json = arguments.flag("json")
        try await CameraTarget(arguments).withConnectedCamera { camera in
            // Bounded: a flood of changes loses the oldest lines rather than growing without end.
            let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1024))
            var tokens = CameraProperties.all.map { property in
                property.observe(camera) { continuation.yield(.property($0)) }
            }
            if let access = camera.fileAccess, camera.supportedFunctionality.contains(.fileAccess) {
                tokens.append(access.addNewFileObserver { continuation.yield(.newFile($0)) })
            }
            tokens.append(
                camera.addConnectionStateObserver { state in
                    if state == .notConnected { continuation.yield(.disconnected(camera.lastDisconnection)) }
                })
            // Ctrl-C ends watching normally, with or without --duration.
            Interrupt.beginHandling()
            Task {
                await Interrupt.wait()
                continuation.yield(.finished)
            }
            let timer = Task {
                guard let duration, (try? await Task.sleep(for: .seconds(duration))) != nil else { return }
                continuation.yield(.finished)
            }
            defer {
                timer.cancel()
                for token in tokens { token.cancel() }
            }
            var previous = Dictionary(
                uniqueKeysWithValues: CameraProperties.all.map { ($0.name, $0.reading(of: camera)) })
            if !json {
                let model = camera.deviceInfo?.model ?? "the camera"
                let end = duration.map { "for \($0) s" } ?? "until Ctrl-C"
                Console.print("Watching \(model) \(end)")
            }
            for await event in events {
                switch event {
                case .property(let reading):
                    let before = previous[reading.name]
                    previous[reading.name] = reading
                    guard let before, before != reading else { continue }
                    try report(reading, before: before, json: json)
                case .newFile(let item):
                    let change = Change(time: Console.timestamp(), newFile: CameraFileRecord(item, folder: nil))
                    try emit(change, json: json, text: "new file \(item.name) (handle \(item.id))")
                case .disconnected(let disconnection):
                    throw CommandFailure(
                        "the camera went away: \(disconnection?.error?.message ?? "the connection closed")",
                        hint: "Check that the camera is on and in range, and start watching again.",
                        exitStatus: ExitStatus.unavailable)
                case .finished:
                    return
                }
            }
        }
    }

    /// Prints a property's change: its value, or else its settable values.
    private static func report(_ reading: PropertyReading, before: PropertyReading, json: Bool) throws {
        var change = Change(time: Console.timestamp(), property: reading.name)
        if reading.value != before.value {
            change.value = reading.value
            change.previousValue = before.value
            try emit(change, json: json, text: "\(reading.name): \(before.value ?? "-") -> \(reading.value ?? "-")")
        } else {
            change.value = reading.value
            change.settableValues = reading.settableValues
            let text = reading.isSettable ? "can now be set to \(reading.settableSummary)" : "can no longer be set"
            try emit(change, json: json, text: "\(reading.name): \(text)")
        }
    }

    /// Prints a change as a JSON line, or as the time and `text`.
    private static func emit(_ change: Change, json: Bool, text: String) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            Console.print(String(decoding: try encoder.encode(change), as: UTF8.self))
        } else {
            Console.print("\(change.time)  \(text)")
        }
    }
}
