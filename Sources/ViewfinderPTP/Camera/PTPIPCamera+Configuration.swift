import ViewfinderCore

extension PTPIPCamera {
    /// How a camera connects, how long it waits, and how it delivers live view.
    public struct Configuration: Sendable {
        /// The PTP/IP session's port, names and timeouts.
        public var session: PTPIPSession.Configuration
        /// How long the camera's event connection may stay silent before the camera is probed.
        ///
        /// Probing notices a camera that left the network without closing its connections; `nil` turns it off, for
        /// a camera that does not answer probes. It replaces the session configuration's
        /// ``PTPIPSession/Configuration/eventProbeInterval``.
        public var eventProbeInterval: Duration?
        /// How long a set property waits by default for the camera to show the new value.
        public var propertySetTimeout: Duration
        /// How long a shutter release waits for the camera to report the capture complete.
        public var captureTimeout: Duration
        /// How long live view may take to become ready after the camera is asked to start it.
        public var liveViewReadyTimeout: Duration
        /// The size of the pieces a download is fetched in, with GetPartialObject where the camera offers it.
        public var downloadChunkSize: Int
        /// The pixel format live view frames are decoded to.
        public var liveViewPixelFormat: PixelFormat
        /// The live view publisher's grace period, retries and warning output.
        public var liveView: LiveViewPublisher.Configuration

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - session: The PTP/IP session's port, names and timeouts; port 15740 by default.
        ///   - eventProbeInterval: How long the event connection may stay silent before the camera is probed.
        ///   - propertySetTimeout: How long a set waits by default for the camera to show the new value.
        ///   - captureTimeout: How long a shutter release waits for the capture to complete.
        ///   - liveViewReadyTimeout: How long live view may take to become ready.
        ///   - downloadChunkSize: The size of a download's pieces, from 4 KiB to 64 MiB.
        ///   - liveViewPixelFormat: The pixel format live view frames are decoded to: NV12 full range by default,
        ///     what a ``DataCaptureContext`` takes; BGRA, RGBA, I420 and the others JPEGDecoder makes also work.
        ///   - liveView: The live view publisher's grace period, retries and warning output.
        public init(
            session: PTPIPSession.Configuration = PTPIPSession.Configuration(),
            eventProbeInterval: Duration? = .seconds(10),
            propertySetTimeout: Duration = .seconds(10),
            captureTimeout: Duration = .seconds(60),
            liveViewReadyTimeout: Duration = .seconds(3),
            downloadChunkSize: Int = 1 << 20,
            liveViewPixelFormat: PixelFormat = .nv12FullRange,
            liveView: LiveViewPublisher.Configuration = LiveViewPublisher.Configuration()
        ) {
            self.session = session
            self.eventProbeInterval = eventProbeInterval
            self.propertySetTimeout = propertySetTimeout
            self.captureTimeout = captureTimeout
            self.liveViewReadyTimeout = liveViewReadyTimeout
            self.downloadChunkSize = min(max(downloadChunkSize, 4096), 64 << 20)
            self.liveViewPixelFormat = liveViewPixelFormat
            self.liveView = liveView
        }
    }
}
