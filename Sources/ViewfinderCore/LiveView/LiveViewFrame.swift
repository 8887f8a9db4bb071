/// One frame of a camera's live view: the JPEG image the camera sent, its size, when it arrived and, unless
/// decoding was skipped, the decoded image.
///
/// ```swift
/// let cancellable = camera.liveViewPublisher
///     .sinkWithReadyHandler { completion in
///         print("Live view ended: \(completion)")
///     } receiveValue: { frame, readyForNextFrame in
///         print("frame \(frame.sequenceNumber): \(frame.pixelSize), \(frame.jpegData.count) bytes of JPEG")
///         readyForNextFrame()
///     }
/// ```
public struct LiveViewFrame: Sendable {
    /// The JPEG image as the camera sent it, without any vendor header.
    public let jpegData: [UInt8]
    /// The size of the JPEG image in pixels, as its header says.
    public let pixelSize: Dimensions
    /// When the frame arrived from the camera, on the monotonic clock.
    public let timestamp: MonotonicTimestamp
    /// The frame's number since live view started; gaps mean frames the camera made were not fetched.
    public let sequenceNumber: UInt64
    /// The decoded image, or `nil` when the publisher's ``LiveViewOption/skipImageDecoding`` option is set.
    ///
    /// Its size is ``pixelSize``, or half of it with ``LiveViewOption/favorHighFrameRate``.
    public let pixelBuffer: PixelBuffer?
    /// Where the image lies in the camera's coordinate space and what it shows: the aspect, the image frame, the zoom
    /// rectangle when magnified and the orientation, as far as the camera says.
    public let geometry: LiveViewGeometry

    /// Creates a frame; without `geometry`, the image fills an aspect of its own size.
    public init(
        jpegData: [UInt8], pixelSize: Dimensions, timestamp: MonotonicTimestamp, sequenceNumber: UInt64,
        pixelBuffer: PixelBuffer?, geometry: LiveViewGeometry? = nil
    ) {
        self.jpegData = jpegData
        self.pixelSize = pixelSize
        self.timestamp = timestamp
        self.sequenceNumber = sequenceNumber
        self.pixelBuffer = pixelBuffer
        self.geometry = geometry ?? LiveViewGeometry(imageSize: pixelSize)
    }
}
