import Viewfinder

/// Where a preview's frames come from: a capture device, a test pattern, or anything else that feeds a
/// ``PreviewFeed``, such as a network camera's live view.
///
/// Sources that are ``FrameSource``s reach the feed the way any Viewfinder app takes frames: through a
/// ``DataCaptureContext`` whose processor is the feed, one frame in flight. A source publishes from any thread once
/// started, and calls ``PreviewFeed/fail(_:)`` when it stops by itself.
protocol PreviewSource: Sendable {
    /// What the preview shows, such as `vivid (/dev/video0)`.
    var title: String { get }

    /// Starts publishing frames; returns their format for people, such as `640x480@25/yuyv`.
    func start() async throws -> String

    /// Stops publishing frames and lets go of the device.
    func stop() async
}

/// A preview of a V4L2 capture device: a ``CameraSource`` on a context that hands its frames to the feed.
final class CaptureDevicePreviewSource: PreviewSource, CameraSourceDelegate {
    let device: CaptureDevice
    private let format: VideoFormat?
    private let feed: PreviewFeed
    private let source = CameraSource()
    private let context = DataCaptureContext()

    /// Creates a source that captures from `device`, in `format` or one chosen for it.
    init(device: CaptureDevice, format: VideoFormat?, feed: PreviewFeed) {
        self.device = device
        self.format = format
        self.feed = feed
        context.addProcessor(feed)
    }

    var title: String { device.description }

    func start() async throws -> String {
        source.delegate = self
        await context.setFrameSource(source)
        return FormatSpecifier.describe(try await source.startCapture(device: device, formatIfGiven: format))
    }

    func stop() async {
        await source.stopCapture()
        await context.setFrameSource(nil)
        feed.releaseFrame()
    }

    func cameraSource(_ source: CameraSource, didFailWithError error: ViewfinderError) {
        feed.fail("\(device) stopped: \(error.message)")
    }
}
