import Viewfinder
import ViewfinderSystem

/// A preview of a network camera's live view: a ``LiveViewFrameSource`` on a context that hands its frames to the
/// feed.
///
/// Frames stay the JPEG images the camera sent (the publisher skips decoding), so the feed passes them to viewers as
/// they are. The source asks for the next frame once the feed has taken one, at most
/// ``maximumFramesPerSecond`` times a second: a camera asked more often only sends the same frame again.
final class CameraPreviewSource: PreviewSource {
    /// The most live view frames fetched per second.
    static let maximumFramesPerSecond = 30

    private struct State {
        var camera: (any Camera)?
        var source: LiveViewFrameSource?
        var tokens: [ObservationToken] = []
        /// Whether live view started, so that later failures end the preview.
        var started = false
        /// Why live view stopped, if it did.
        var failure: String?
    }

    private let target: CameraTarget
    private let feed: PreviewFeed
    private let context = DataCaptureContext()
    private let state = Locked(State())

    /// Creates a source for the camera `target` finds.
    init(target: CameraTarget, feed: PreviewFeed) {
        self.target = target
        self.feed = feed
        context.addProcessor(feed)
    }

    var title: String {
        let model = state.withLock { $0.camera?.deviceInfo?.model }
        return "\(model ?? "the camera") (\(target.place))"
    }

    func start() async throws -> String {
        let camera = try await target.connect()
        state.withLock { $0.camera = camera }
        do {
            try require(.liveView, of: camera, else: "does not offer live view")
        } catch {
            await stop()
            throw error
        }
        camera.applyLiveViewOptions([
            .skipImageDecoding: true, .maximumFramesPerSecond: .number(Double(Self.maximumFramesPerSecond)),
        ])
        let source = LiveViewFrameSource(camera: camera)
        let tokens = [
            source.addStateListener { [weak self] change in
                if let error = change.error { self?.stopped("live view stopped: \(error)") }
            },
            camera.addConnectionStateObserver { [weak self] connection in
                if connection == .notConnected { self?.stopped("the camera went away") }
            },
        ]
        state.withLock { state in
            state.source = source
            state.tokens = tokens
        }
        await context.setFrameSource(source)
        guard await source.switch(toDesiredState: .on) else {
            let reason = state.withLock { $0.failure } ?? "live view did not start"
            await stop()
            throw CommandFailure(
                reason, hint: "Check that the camera is in a mode that allows live view, and try again.",
                exitStatus: ExitStatus.unavailable)
        }
        state.withLock { $0.started = true }
        let size = feed.statistics.dimensions.map { "\($0.width)x\($0.height) " } ?? ""
        return "\(size)JPEG live view, up to \(Self.maximumFramesPerSecond) fps"
    }

    /// Records why live view stopped; once it has started, the preview ends with the reason.
    private func stopped(_ reason: String) {
        let started = state.withLock { state in
            state.failure = state.failure ?? reason
            return state.started
        }
        if started { feed.fail(reason) }
    }

    func stop() async {
        let (camera, source, tokens) = state.withLock { state in
            defer {
                state.tokens = []
                state.started = false
            }
            return (state.camera, state.source, state.tokens)
        }
        for token in tokens { token.cancel() }
        await source?.switch(toDesiredState: .off)
        await context.setFrameSource(nil)
        try? await camera?.disconnect()
        feed.releaseFrame()
    }
}
