import Viewfinder

/// Where a preview's frames come from: a capture device, a test pattern, or anything else that can hand frames or
/// JPEG images to a ``PreviewFeed``, such as a network camera's live view.
///
/// A source is given its feed when it is made, publishes into it from any thread once started, and calls
/// ``PreviewFeed/fail(_:)`` when it stops by itself.
protocol PreviewSource: Sendable {
    /// What the preview shows, such as `vivid (/dev/video0)`.
    var title: String { get }

    /// Starts publishing frames; returns their format for people, such as `640x480@25/yuyv`.
    func start() async throws -> String

    /// Stops publishing frames and lets go of the device.
    func stop() async
}

/// A preview of a V4L2 capture device through ``CameraSource``.
final class CaptureDevicePreviewSource: PreviewSource, CameraSourceDelegate {
    let device: CaptureDevice
    private let format: VideoFormat?
    private let feed: PreviewFeed
    private let source = CameraSource()

    /// Creates a source that captures from `device`, in `format` or one chosen for it.
    init(device: CaptureDevice, format: VideoFormat?, feed: PreviewFeed) {
        self.device = device
        self.format = format
        self.feed = feed
    }

    var title: String { device.description }

    func start() async throws -> String {
        source.delegate = self
        source.setFrameHandler { [feed] frame in feed.publish(frame) }
        let chosen =
            if let format {
                try await source.startCapture(device: device, format: format)
            } else {
                try await source.startCapture(device: device)
            }
        return FormatSpecifier.describe(chosen)
    }

    func stop() async {
        await source.stopCapture()
        source.setFrameHandler(nil)
        feed.releaseFrame()
    }

    func cameraSource(_ source: CameraSource, didFailWithError error: ViewfinderError) {
        feed.fail("\(device) stopped: \(error.message)")
    }
}
