import Dispatch
import Viewfinder
import ViewfinderSystem

extension CameraDemo {
    /// Runs live view for ``liveViewDuration`` with `sinkWithReadyHandler`, printing the frame rate once a second.
    ///
    /// - Parameter framesPerSecond: How many new frames the camera makes a second: fetching more often would only
    ///   fetch the same picture again.
    /// - Returns: The last frame.
    func runLiveView(on camera: any Camera, framesPerSecond: Int) async throws -> LiveViewFrame {
        Console.print(
            "camera.liveViewPublisher(options: [.maximumFramesPerSecond: \(framesPerSecond)]).sinkWithReadyHandler "
                + "for \(liveViewDuration.inSeconds.formatted(decimals: 1)) s:\n"
                + "the next frame is fetched once the ready handler is called, and no more often than the camera makes "
                + "new ones.")
        let meter = LiveViewMeter()
        let (endings, ending) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
        let options: [LiveViewOption: LiveViewOptionValue] = [.maximumFramesPerSecond: .number(Double(framesPerSecond))]
        let frames = DispatchQueue(label: "viewfinder.demo.live-view")
        let subscription = camera.liveViewPublisher(options: options)
            .receive(on: frames)
            .sinkWithReadyHandler { completion in
                switch completion {
                case .finished: ending.yield("live view ended")
                case .failure(let reason): ending.yield("live view \(reason)")
                }
            } receiveValue: { frame, readyForNextFrame in
                if let line = meter.record(frame) { Console.print(line) }
                readyForNextFrame()
            }
        let failure = await Self.first(of: endings, within: liveViewDuration)
        subscription.cancel()
        // Let a frame being printed finish first, so that its line comes before the summary.
        await withCheckedContinuation { continuation in frames.async { continuation.resume() } }
        let result = meter.finish()
        if let failure {
            throw CommandFailure(
                "\(failure) after \(result.frames) frames", hint: "Run the demo again; if it fails again, report it.")
        }
        guard let last = result.last, result.frames > 1 else {
            throw CommandFailure(
                "live view gave \(result.frames) frames in \(liveViewDuration.inSeconds) s",
                hint: "The machine may be very busy; try a longer --live-view.", exitStatus: ExitStatus.timeout)
        }
        let decoded = last.pixelBuffer.map { ", each decoded to \($0.width)x\($0.height) \($0.format)" } ?? ""
        Console.print(
            "Live view: \(result.frames) frames of \(last.pixelSize) JPEG in \(result.seconds.formatted(decimals: 1)) s, "
                + "\(result.framesPerSecond.formatted(decimals: 1)) fps\(decoded).")
        return last
    }
}

/// Counts live view frames as they arrive and measures the frame rate, one line a second.
private final class LiveViewMeter: Sendable {
    struct State {
        var frames = 0
        var first: ContinuousClock.Instant?
        var latest: ContinuousClock.Instant?
        var lastReport: (time: ContinuousClock.Instant, frames: Int)?
        var last: LiveViewFrame?
        var isFinished = false
    }

    /// What live view delivered.
    struct Result {
        var frames: Int
        var seconds: Double
        var last: LiveViewFrame?

        /// Frames per second from the first frame to the last.
        var framesPerSecond: Double { frames > 1 && seconds > 0 ? Double(frames - 1) / seconds : 0 }
    }

    private let state = Locked(State())

    /// Counts a frame; returns a line to print when a second has passed since the last one.
    func record(_ frame: LiveViewFrame) -> String? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard !state.isFinished else { return nil }
            state.frames += 1
            state.last = frame
            state.latest = now
            guard let report = state.lastReport else {
                state.first = now
                state.lastReport = (now, 1)
                return nil
            }
            let seconds = report.time.duration(to: now).inSeconds
            guard seconds >= 1 else { return nil }
            state.lastReport = (now, state.frames)
            let rate = Double(state.frames - report.frames) / seconds
            let total = state.first.map { $0.duration(to: now).inSeconds } ?? 0
            return
                "  \(total.formatted(decimals: 1)) s: frame \(frame.sequenceNumber), \(rate.formatted(decimals: 1)) fps"
        }
    }

    /// Stops counting and returns what was counted.
    func finish() -> Result {
        state.withLock { state in
            state.isFinished = true
            guard let first = state.first, let latest = state.latest else {
                return Result(frames: state.frames, seconds: 0, last: state.last)
            }
            return Result(frames: state.frames, seconds: first.duration(to: latest).inSeconds, last: state.last)
        }
    }
}
