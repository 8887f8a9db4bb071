import Foundation
import Viewfinder
import ViewfinderSystem

/// What the camera commands show while they connect and disconnect: the camera's question to its user about this
/// computer, with Ctrl-C to give up, and what connecting or disconnecting could not do, on standard error.
///
/// ```swift
/// let prompt = ConnectionPrompt(json: false)
/// let warnings = try await camera.connect(options: [], userIntervention: prompt.handle)
/// prompt.report(warnings)
/// ```
final class ConnectionPrompt: Sendable {
    /// Whether messages are JSON objects, one a line, for commands run with --json.
    let json: Bool
    /// The watch that turns Ctrl-C into cancelling the intervention, while one is shown.
    private let interruptWatch = Locked<Int?>(nil)

    /// Creates a prompt that writes text, or JSON lines when `json` is `true`.
    init(json: Bool) {
        self.json = json
    }

    /// Shows an intervention and lets Ctrl-C cancel it; takes it down once it is resolved.
    @Sendable func handle(_ event: CameraUserInterventionEvent) {
        switch event {
        case .required(let intervention):
            // Watching before the question shows: a Ctrl-C as soon as it shows cancels rather than exits.
            let watch = Interrupt.watch { intervention.cancel() }
            interruptWatch.withLock { $0 = watch }
            say(
                "waiting", kind: "confirmOnCamera",
                "\(intervention.message) Waiting up to \(intervention.deadline); Ctrl-C cancels.")
        case .resolved:
            if let watch = interruptWatch.withLock({ watch in
                defer { watch = nil }
                return watch
            }) {
                Interrupt.endWatch(watch)
            }
        }
    }

    /// Prints what connecting could not do.
    func report(_ warnings: [CameraConnectionWarning]) {
        for warning in warnings {
            say("warning", kind: "\(warning.kind)", warning.message)
        }
    }

    /// Prints that the camera was not turned off as it disconnected, and why.
    func reportPowerOffFailure(_ error: any Error) {
        let message = (error as? ViewfinderError)?.message ?? "\(error)"
        say("warning", kind: "powerOffFailed", "the camera was not turned off: \(message)")
    }

    /// One line on standard error: `warning: message`, or a JSON object with the kind.
    private func say(_ label: String, kind: String, _ message: String) {
        guard json else {
            Console.printToError("\(label): \(message)")
            return
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = (try? encoder.encode([label: kind, "message": message])).map { String(decoding: $0, as: UTF8.self) }
        Console.printToError(line ?? "\(label): \(message)")
    }
}
