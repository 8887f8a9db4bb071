/// Whether a camera is recording video, and what its recording timer shows.
///
/// ```swift
/// switch camera.videoRecordingState {
/// case .notRecording: print("Not Recording")
/// case .recording(let timer?): print("Recording: \(timer.asMinutesAndSeconds)")
/// case .recording: print("Recording")
/// }
/// ```
public enum VideoRecordingState: Hashable, Sendable {
    /// The camera is not recording.
    case notRecording
    /// The camera is recording; `timer` is what its recording timer shows, when it reports one.
    case recording(timer: VideoRecordingTimer?)
}

/// A camera's video recording timer: time recorded so far, or time left.
public enum VideoRecordingTimer: Hashable, Sendable {
    /// The length of the clip so far.
    case countingUp(Duration)
    /// The recording time left.
    case countingDown(Duration)

    /// The time the timer shows.
    public var duration: Duration {
        switch self {
        case .countingUp(let duration), .countingDown(let duration): return duration
        }
    }

    /// The time as minutes and seconds, such as "10:47", or "75:02" past the hour; never below "0:00".
    public var asMinutesAndSeconds: String {
        let seconds = max(duration.components.seconds, 0)
        let remainder = seconds % 60
        return "\(seconds / 60):\(remainder < 10 ? "0" : "")\(remainder)"
    }
}
