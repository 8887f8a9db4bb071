/// When a timelapse takes each frame: frame `n` (from 0) at `n` intervals after the start, whenever the ones before
/// it were taken, so the schedule never drifts.
///
/// A frame whose time has passed by more than a quarter of the interval when the camera is ready is skipped, so a slow
/// frame delays none after it and two frames are never taken back to back.
struct TimelapseSchedule: Sendable {
    /// What to do next.
    enum Step: Equatable {
        /// Wait this long for the frame's time.
        case wait(Duration)
        /// Take the frame now.
        case take
        /// Skip the frame: its time passed this long ago.
        case skip(lateness: Duration)
        /// Every frame is done.
        case done
    }

    /// How many frames the timelapse has.
    let frames: Int
    /// The time from one frame to the next.
    let interval: Duration

    /// How late a frame may be taken.
    var tolerance: Duration { interval / 4 }

    /// What to do about frame `frame` (from 0) at `elapsed` since the start.
    func step(for frame: Int, at elapsed: Duration) -> Step {
        guard frame < frames else { return .done }
        let time = interval * frame
        if elapsed < time { return .wait(time - elapsed) }
        let lateness = elapsed - time
        return lateness > tolerance ? .skip(lateness: lateness) : .take
    }
}
