/// One image from a frame source, with when it was taken and how to show it.
public struct Frame: Sendable {
    /// How a frame's pixels are rotated relative to how it should be shown.
    public enum Orientation: Hashable, Sendable {
        /// The pixels are upright.
        case up
        /// The top of the image is at the left: rotate 90° clockwise to show it upright.
        case left
        /// The image is upside down: rotate 180° to show it upright.
        case down
        /// The top of the image is at the right: rotate 90° counter-clockwise to show it upright.
        case right
    }

    /// The image.
    public var pixelBuffer: PixelBuffer
    /// When the image was captured, on the monotonic clock.
    public var timestamp: MonotonicTimestamp
    /// The frame's number in its source's stream; gaps mean frames were dropped before they got here.
    public var sequenceNumber: UInt64
    /// How the pixels are rotated relative to how they should be shown.
    public var orientation: Orientation
    /// Whether the image is mirrored left to right, as frames from a user-facing camera are.
    public var isMirrored: Bool

    /// Creates a frame.
    public init(
        pixelBuffer: PixelBuffer, timestamp: MonotonicTimestamp, sequenceNumber: UInt64,
        orientation: Orientation = .up, isMirrored: Bool = false
    ) {
        self.pixelBuffer = pixelBuffer
        self.timestamp = timestamp
        self.sequenceNumber = sequenceNumber
        self.orientation = orientation
        self.isMirrored = isMirrored
    }
}
