import Foundation
import Viewfinder

/// Runs an automation on a camera and shows what it does: a line for each frame, saved file and skipped frame, or with
/// `--json` one JSON object per event on a line of its own (``AutomationEventRecord``).
///
/// Ctrl-C cancels the automation, which lets go of a held shutter and puts back a bracketed setting before it ends;
/// the command then prints the summary and exits with 130, or with 0 for an automation that runs until Ctrl-C.
struct AutomationProgress {
    /// Whether to print JSON lines.
    let json: Bool
    /// Whether Ctrl-C is the automation's usual end (tethering), so the command exits with 0 after it.
    var endsWithCtrlC = false
    /// Whether to print a line for each wait for the next frame (`--json` prints every event).
    var showsWaits = true
    /// Runs after each saved file, before the next event is shown; returns a line of its own to show, if any.
    var afterSaving: ((_ path: String) async throws -> AutomationEventRecord?)?

    /// The options of the automations that take pictures: where to save them, how long to wait for each, and JSON.
    static let pictureOptions: [OptionSpec] = [
        .value("download", "DIR", short: "d", help: "Save the pictures' files into DIR."),
        .value("timeout", "SECONDS", help: "How long to wait for each picture's file.", default: "30"),
        .flag("json", help: "Print each event as a JSON object on a line of its own."),
    ]

    /// Reads ``pictureOptions``, connects to the camera, and shows the automation `start` begins on it until it ends.
    ///
    /// - Parameter start: Starts the automation on the camera, saving into the directory given (`nil` for none) and
    ///   waiting for each picture's file as long as given.
    static func run(
        _ arguments: ParsedArguments,
        _ start: @escaping (_ camera: any Camera, _ directory: String?, _ fileTimeout: Duration) throws -> AutomationRun
    ) async throws {
        let timeout = try arguments.seconds("timeout", default: 30, in: 1...3600)
        let directory = try arguments.value("download").map { try OutputDirectory($0) }
        let progress = AutomationProgress(json: arguments.flag("json"))
        try await CameraTarget(arguments).withConnectedCamera { camera in
            try await progress.show(start(camera, directory?.path, .seconds(timeout)))
        }
    }

    /// Runs `automation` until it ends, showing its events.
    ///
    /// - Throws: What stopped the automation, or ``CommandFailure`` with exit status 130 after Ctrl-C (unless
    ///   ``endsWithCtrlC``).
    func show(_ automation: AutomationRun) async throws {
        Interrupt.beginHandling()
        let interruption = Task {
            await Interrupt.wait()
            automation.cancel()
        }
        defer { interruption.cancel() }
        var summary = AutomationSummary()
        for try await event in automation.events {
            try show(event)
            if case .saved(_, _, let path) = event, let afterSaving, let line = try await afterSaving(path) {
                try print(line, text: line.text)
            }
            if case .finished(let ended) = event { summary = ended }
        }
        if summary.wasCancelled, Interrupt.hasOccurred, !endsWithCtrlC {
            throw CommandFailure("stopped with Ctrl-C", exitStatus: ExitStatus.interrupted)
        }
    }

    private func show(_ event: AutomationEvent) throws {
        let record = AutomationEventRecord(event)
        switch event {
        case .waiting(let frame, let delay):
            try print(record, text: showsWaits ? "Frame \(frame) in \(Self.seconds(delay)) s" : nil)
        case .exposing:
            try print(record, text: nil)
        case .captured(let frame, let files):
            let names = files.map(\.name).joined(separator: ", ")
            try print(record, text: "Frame \(frame): " + (names.isEmpty ? "taken" : names))
        case .saved(_, _, let path):
            try print(record, text: "  saved \(path)")
        case .skipped(let frame, let lateness):
            try print(record, text: "Frame \(frame) skipped: the camera was ready \(Self.seconds(lateness)) s late")
        case .focusMoved:
            try print(record, text: nil)
        case .focusStopped(let frame, let reason):
            try print(record, text: "The focus stopped after frame \(frame): \(reason)")
        case .restored(let setting):
            try print(record, text: "Back at \(setting)")
        case .finished(let summary):
            var text =
                "Took \(summary.framesCaptured) frame\(summary.framesCaptured == 1 ? "" : "s")"
                + (summary.framesSkipped > 0 ? ", skipped \(summary.framesSkipped)" : "")
                + ", saved \(summary.filesSaved) file\(summary.filesSaved == 1 ? "" : "s")"
            if summary.wasCancelled { text += " (stopped before the end)" }
            try print(record, text: text)
        }
    }

    private func print(_ record: AutomationEventRecord, text: String?) throws {
        if json {
            try Console.printJSONLine(record)
        } else if let text {
            Console.print(text)
        }
    }

    /// A duration in seconds to a tenth, for people.
    static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f", AutomationEventRecord.seconds(duration))
    }
}

/// An automation's event as `--json` prints it: `event` names it, the other fields are those it has.
struct AutomationEventRecord: Encodable {
    var event: String
    var time = Console.timestamp()
    var frame: Int?
    /// The wait before the frame, or how late a skipped frame was.
    var seconds: Double?
    var setting: String?
    var files: [CameraFileRecord]?
    var path: String?
    var steps: Int?
    var reason: String?
    var framesCaptured: Int?
    var framesSkipped: Int?
    var filesSaved: Int?
    var cancelled: Bool?
    /// A command run for a file, and the status it exited with.
    var command: String?
    var status: Int32?
    /// What the command line shows for a record the command adds itself.
    var text: String? = nil

    init(event: String) {
        self.event = event
    }

    init(_ automationEvent: AutomationEvent) {
        switch automationEvent {
        case .waiting(let frame, let delay):
            self.init(event: "waiting")
            self.frame = frame
            seconds = Self.seconds(delay)
        case .exposing(let frame, let setting):
            self.init(event: "exposing")
            self.frame = frame
            self.setting = setting
        case .captured(let frame, let files):
            self.init(event: "captured")
            self.frame = frame
            self.files = files.map { CameraFileRecord($0, folder: nil) }
        case .saved(let frame, let file, let path):
            self.init(event: "saved")
            self.frame = frame
            files = [CameraFileRecord(file, folder: nil)]
            self.path = path
        case .skipped(let frame, let lateness):
            self.init(event: "skipped")
            self.frame = frame
            seconds = Self.seconds(lateness)
        case .focusMoved(let frame, let steps):
            self.init(event: "focusMoved")
            self.frame = frame
            self.steps = steps
        case .focusStopped(let frame, let reason):
            self.init(event: "focusStopped")
            self.frame = frame
            self.reason = reason
        case .restored(let setting):
            self.init(event: "restored")
            self.setting = setting
        case .finished(let summary):
            self.init(event: "finished")
            framesCaptured = summary.framesCaptured
            framesSkipped = summary.framesSkipped
            filesSaved = summary.filesSaved
            cancelled = summary.wasCancelled
        }
    }

    private enum CodingKeys: String, CodingKey {
        case event, time, frame, seconds, setting, files, path, steps, reason, framesCaptured, framesSkipped
        case filesSaved, cancelled, command, status
    }

    /// A duration in seconds, to the millisecond.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return ((Double(seconds) + Double(attoseconds) * 1e-18) * 1000).rounded() / 1000
    }
}
