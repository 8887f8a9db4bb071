import ViewfinderCore

/// What a running automation reports, in order: each wait, picture, saved file and skipped frame, then its end.
///
/// Frames count from 1. A run that ends normally or is cancelled reports ``finished(_:)`` last; one that fails throws
/// from the sequence instead.
public enum AutomationEvent: Sendable, Hashable {
    /// The automation waits `delay` before taking frame `frame`.
    case waiting(frame: Int, delay: Duration)
    /// The shutter is released for frame `frame`, with the exposure setting it has when the automation sets one
    /// (a bracket's shutter speed or compensation, shown as the camera shows it).
    case exposing(frame: Int, setting: String?)
    /// Frame `frame` is taken, with the files the camera reported for it (none for a camera without file access).
    case captured(frame: Int, files: [CameraFileItem])
    /// A file of frame `frame` is saved at `path`.
    case saved(frame: Int, file: CameraFileItem, path: String)
    /// Frame `frame` is not taken: its time had passed by `lateness` when the camera was ready, more than the
    /// schedule allows, so the next frames keep their times rather than bunching up.
    case skipped(frame: Int, lateness: Duration)
    /// The focus moved `steps` steps after frame `frame`.
    case focusMoved(frame: Int, steps: Int)
    /// The focus could not move after frame `frame` (the lens reached the end of its travel, say): the stack ends
    /// there.
    case focusStopped(frame: Int, reason: String)
    /// The setting the automation changed is back at `setting`, as it was before.
    case restored(setting: String)
    /// The automation ended, normally or cancelled.
    case finished(AutomationSummary)
}

/// What an automation did: frames taken and skipped, files saved, and whether it was cancelled.
public struct AutomationSummary: Sendable, Hashable {
    /// The frames taken.
    public var framesCaptured = 0
    /// The frames skipped because their time had passed.
    public var framesSkipped = 0
    /// The files saved.
    public var filesSaved = 0
    /// Whether the automation was cancelled before it was done.
    public var wasCancelled = false

    /// Creates a summary.
    public init(framesCaptured: Int = 0, framesSkipped: Int = 0, filesSaved: Int = 0, wasCancelled: Bool = false) {
        self.framesCaptured = framesCaptured
        self.framesSkipped = framesSkipped
        self.filesSaved = filesSaved
        self.wasCancelled = wasCancelled
    }

    /// The summary with `event` counted.
    func counting(_ event: AutomationEvent) -> AutomationSummary {
        var summary = self
        switch event {
        case .captured: summary.framesCaptured += 1
        case .skipped: summary.framesSkipped += 1
        case .saved: summary.filesSaved += 1
        default: break
        }
        return summary
    }
}
