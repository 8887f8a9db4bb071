import Viewfinder
import ViewfinderSystem

/// The automation a page runs on the camera, a timelapse or a bracket from ViewfinderAutomation: one at a time, with
/// its progress for the page to show.
///
/// ```swift
/// let progress = try automation.start(["kind": "timelapse", "frames": "10", "interval": "5"])
/// automation.stop()
/// ```
final class RemoteAutomation: Sendable {
    /// How an automation goes, as the page shows it.
    struct Progress: Encodable, Sendable {
        /// `timelapse` or `bracket`.
        var kind: String
        /// Whether it still runs.
        var running = true
        /// The frames taken so far, and how many it takes in all.
        var framesCaptured = 0
        var frames: Int
        /// The last event, as `camera timelapse --json` prints it.
        var last: AutomationEventRecord?
        /// Why it failed, when it did.
        var error: String?
        /// Whether it was stopped before the end.
        var cancelled = false
    }

    private struct State {
        var progress: Progress?
        var run: AutomationRun?
    }

    private let camera: any Camera
    private let state = Locked(State())

    /// The automations of `camera`.
    init(camera: any Camera) {
        self.camera = camera
    }

    /// How the running or last automation goes; `nil` before the first.
    var progress: Progress? { state.withLock { $0.progress } }

    /// Whether an automation runs now.
    var isRunning: Bool { state.withLock { $0.progress?.running == true } }

    /// Starts the automation the page's form fields describe: `kind=timelapse` with `frames` and `interval` (seconds),
    /// or `kind=bracket` with `setting` (`shutter` or `compensation`), `shots` and `step` (stops, such as `1/3`).
    ///
    /// - Throws: ``RemoteServer/Refusal`` with 409 while another automation runs, and 400 for fields out of range.
    func start(_ fields: [String: String]) throws -> Progress {
        let (kind, frames, work) = try Self.automation(fields)
        let progress = Progress(kind: kind, frames: frames)
        try state.withLock { state throws(RemoteServer.Refusal) in
            if let running = state.progress, running.running {
                throw RemoteServer.Refusal(
                    status: "409 Conflict",
                    message: "A \(running.kind) runs (\(running.framesCaptured) of \(running.frames) frames); stop it "
                        + "before starting another automation.")
            }
            state.progress = progress
            state.run = nil
        }
        let run = work(camera)
        state.withLock { $0.run = run }
        Task { await self.follow(run) }
        return progress
    }

    /// Stops the running automation, which puts back what it changed and then reports its end.
    ///
    /// - Throws: ``RemoteServer/Refusal`` with 409 when none runs.
    func stop() throws -> Progress {
        try state.withLock { state throws(RemoteServer.Refusal) -> Progress in
            guard let progress = state.progress, progress.running, let run = state.run else {
                throw RemoteServer.Refusal(status: "409 Conflict", message: "No automation runs.")
            }
            run.cancel()
            return progress
        }
    }

    /// Stops the running automation, if one runs, as the server stops.
    func cancel() {
        state.withLock { $0.run }?.cancel()
    }

    /// Records the events of `run` until it ends.
    private func follow(_ run: AutomationRun) async {
        do {
            for try await event in run.events {
                state.withLock { state in
                    state.progress?.last = AutomationEventRecord(event)
                    if case .captured = event { state.progress?.framesCaptured += 1 }
                    if case .finished(let summary) = event {
                        state.progress?.running = false
                        state.progress?.cancelled = summary.wasCancelled
                        state.run = nil
                    }
                }
            }
        } catch {
            state.withLock { state in
                state.progress?.running = false
                state.progress?.error = (error as? ViewfinderError)?.message ?? "\(error)"
                state.run = nil
            }
        }
    }

    /// What the fields ask for: the kind, its frame count, and how to start it.
    private static func automation(_ fields: [String: String]) throws -> (
        String, Int, @Sendable (any Camera) -> AutomationRun
    ) {
        func number(_ name: String, in range: ClosedRange<Int>, default value: Int) throws -> Int {
            guard let text = fields[name], !text.isEmpty else { return value }
            guard let number = Int(text), range.contains(number) else {
                throw RemoteServer.Refusal(
                    status: "400 Bad Request",
                    message: "The field '\(name)' is a whole number from \(range.lowerBound) to \(range.upperBound).")
            }
            return number
        }
        switch fields["kind"] {
        case "timelapse":
            let frames = try number("frames", in: 1...10_000, default: 10)
            let interval = try number("interval", in: 1...3600, default: 5)
            let timelapse = Timelapse(frames: frames, interval: .seconds(interval))
            return ("timelapse", frames, { timelapse.start(on: $0) })
        case "bracket":
            let settings: [String: ExposureBracket.Setting] = [
                "shutter": .shutterSpeed, "compensation": .exposureCompensation,
            ]
            guard let setting = settings[fields["setting"] ?? "compensation"] else {
                throw RemoteServer.Refusal(
                    status: "400 Bad Request", message: "The field 'setting' is shutter or compensation.")
            }
            let shots = try number("shots", in: 3...15, default: 3)
            guard shots % 2 == 1 else {
                throw RemoteServer.Refusal(
                    status: "400 Bad Request",
                    message: "The field 'shots' is odd, so the current value is in the middle.")
            }
            guard let step = CameraBracketCommand.stops(fields["step"] ?? "1"), step > .zero,
                step <= ExposureStops(wholeStops: 3)
            else {
                throw RemoteServer.Refusal(
                    status: "400 Bad Request",
                    message: "The field 'step' is stops above 0 and up to 3, such as 1 or 1/3.")
            }
            let bracket = ExposureBracket(setting: setting, shots: shots, step: step)
            return ("bracket", shots, { bracket.start(on: $0) })
        default:
            throw RemoteServer.Refusal(status: "400 Bad Request", message: "The field 'kind' is timelapse or bracket.")
        }
    }
}
