/// The movies the camera records: their frame size and, where the camera says it, their frame rate.
public struct VideoRecordingFormatValue: CameraPropertyValue {
    /// The frame size in pixels.
    public let frameSize: Dimensions
    /// The frames a second; `nil` when the camera's code does not say.
    public let framesPerSecond: Int?

    /// Creates a format of `frameSize` frames at `framesPerSecond`, when known.
    public init(frameSize: Dimensions, framesPerSecond: Int? = nil) {
        self.frameSize = frameSize
        self.framesPerSecond = framesPerSecond
    }

    /// The frame size, and the frame rate when known, such as "1280x720" or "1920x1080 30p".
    public var localizedDisplayValue: String {
        framesPerSecond.map { "\(frameSize) \($0)p" } ?? frameSize.description
    }
}
