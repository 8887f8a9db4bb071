import Viewfinder
import ViewfinderConcurrency

/// Takes a capture's frames on the capture thread, counts them, and hands them on through a buffer of two that drops
/// its oldest frame when the consumer falls behind; as the source's delegate, ends them when capture fails.
///
/// Held frames hold driver buffers, so the buffer is small: with the frame being saved, three are out, and the
/// device drops new frames rather than the tool queueing them.
final class CaptureRecorder: CameraSourceDelegate {
    /// Why the frames ended before the consumer stopped reading.
    enum Ending: Sendable {
        /// No frame arrived for longer than the stall timeout.
        case stalled
        /// The user pressed Ctrl-C.
        case interrupted
        /// Capture stopped with an error, such as the device being unplugged.
        case failed(ViewfinderError)
    }

    /// What the capture delivered, from the frames' own sequence numbers and driver timestamps.
    struct Summary: Sendable {
        /// Frames the device delivered to the tool.
        var delivered = 0
        /// Delivered frames the tool let go because saving fell behind.
        var skipped = 0
        var firstSequence: UInt64?
        var lastSequence: UInt64?
        var firstTimestamp: MonotonicTimestamp?
        var lastTimestamp: MonotonicTimestamp?

        /// Frames the device or driver skipped: gaps in the sequence numbers.
        var dropped: Int {
            guard let firstSequence, let lastSequence else { return 0 }
            return Int(lastSequence - firstSequence + 1) - delivered
        }

        /// The device's frame rate: frames it produced (by their sequence numbers, so dropped frames count) per
        /// second between the first and the last delivered frame (by the driver's timestamps).
        var framesPerSecond: Double? {
            guard let firstSequence, let lastSequence, lastSequence > firstSequence, seconds > 0 else { return nil }
            return Double(lastSequence - firstSequence) / seconds
        }

        /// Seconds between the first and the last delivered frame.
        var seconds: Double {
            guard let firstTimestamp, let lastTimestamp else { return 0 }
            return lastTimestamp.duration(since: firstTimestamp).seconds
        }
    }

    private struct State {
        var summary = Summary()
        var lastArrival = MonotonicTimestamp.now()
        var ending: Ending?
    }

    /// The frames, in order, until the capture ends.
    let frames: AsyncStream<Frame>
    private let continuation: AsyncStream<Frame>.Continuation
    private let state = Locked(State())

    init() {
        (frames, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(2))
    }

    /// Counts a frame and passes it on; called on the capture thread.
    func receive(_ frame: Frame) {
        state.withLock { state in
            state.lastArrival = .now()
            state.summary.delivered += 1
            state.summary.firstSequence = state.summary.firstSequence ?? frame.sequenceNumber
            state.summary.lastSequence = frame.sequenceNumber
            state.summary.firstTimestamp = state.summary.firstTimestamp ?? frame.timestamp
            state.summary.lastTimestamp = frame.timestamp
        }
        if case .dropped = continuation.yield(frame) {
            state.withLock { $0.summary.skipped += 1 }
        }
    }

    /// Ends the frames because of `ending`, unless they have ended already.
    func end(_ ending: Ending) {
        let first = state.withLock { state in
            defer { state.ending = state.ending ?? ending }
            return state.ending == nil
        }
        if first { continuation.finish() }
    }

    /// Ends the frames as stalled when none arrived within `timeout`.
    func endIfStalled(after timeout: Duration) {
        let stalled = state.withLock { MonotonicTimestamp.now().duration(since: $0.lastArrival) > timeout }
        if stalled { end(.stalled) }
    }

    func cameraSource(_ source: CameraSource, didFailWithError error: ViewfinderError) {
        end(.failed(error))
    }

    /// What was delivered so far.
    var summary: Summary { state.withLock { $0.summary } }

    /// Why the frames ended early, if they did.
    var ending: Ending? { state.withLock { $0.ending } }
}
