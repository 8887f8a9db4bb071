import ViewfinderCore

extension PTPCamera {
    /// How long a camera waits for things, and how it delivers live view.
    ///
    /// How the camera is reached, and how long each wait on the transport lasts, is the endpoint's configuration.
    public struct Configuration: Sendable {
        /// The PTP session's ID and the limits on what the camera may make it hold.
        public var session: PTPSession.Configuration
        /// How long a set property waits by default for the camera to show the new value.
        public var propertySetTimeout: Duration
        /// How long a shutter release waits for the camera to report the capture complete.
        public var captureTimeout: Duration
        /// How long live view may take to become ready after the camera is asked to start it.
        public var liveViewReadyTimeout: Duration
        /// How long the camera may take to focus before a shutter release with autofocus.
        public var focusTimeout: Duration
        /// The size of the pieces a download is fetched in, with GetPartialObject where the camera offers it; a size
        /// outside 4 KiB to 64 MiB is brought inside.
        public var downloadChunkSize: Int {
            didSet { downloadChunkSize = Self.bounded(downloadChunkSize) }
        }

        /// A download chunk size brought into 4 KiB to 64 MiB.
        private static func bounded(_ chunkSize: Int) -> Int { min(max(chunkSize, 4096), 64 << 20) }
        /// The pixel format live view frames are decoded to.
        public var liveViewPixelFormat: PixelFormat
        /// The live view publisher's grace period, retries and warning output.
        public var liveView: LiveViewPublisher.Configuration

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - session: The PTP session's ID and limits.
        ///   - propertySetTimeout: How long a set waits by default for the camera to show the new value.
        ///   - captureTimeout: How long a shutter release waits for the capture to complete.
        ///   - liveViewReadyTimeout: How long live view may take to become ready.
        ///   - focusTimeout: How long the camera may take to focus.
        ///   - downloadChunkSize: The size of a download's pieces, from 4 KiB to 64 MiB.
        ///   - liveViewPixelFormat: The pixel format live view frames are decoded to: NV12 full range by default,
        ///     what a `DataCaptureContext` takes; BGRA, RGBA, I420 and the others JPEGDecoder makes also work.
        ///   - liveView: The live view publisher's grace period, retries and warning output.
        public init(
            session: PTPSession.Configuration = PTPSession.Configuration(),
            propertySetTimeout: Duration = .seconds(10),
            captureTimeout: Duration = .seconds(60),
            liveViewReadyTimeout: Duration = .seconds(3),
            focusTimeout: Duration = .seconds(5),
            downloadChunkSize: Int = 1 << 20,
            liveViewPixelFormat: PixelFormat = .nv12FullRange,
            liveView: LiveViewPublisher.Configuration = LiveViewPublisher.Configuration()
        ) {
            self.session = session
            self.propertySetTimeout = propertySetTimeout
            self.captureTimeout = captureTimeout
            self.liveViewReadyTimeout = liveViewReadyTimeout
            self.focusTimeout = focusTimeout
            self.downloadChunkSize = Self.bounded(downloadChunkSize)
            self.liveViewPixelFormat = liveViewPixelFormat
            self.liveView = liveView
        }
    }
}
