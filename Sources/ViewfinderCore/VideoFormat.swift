/// The width and height of an image, in pixels.
public struct Dimensions: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int

    /// Creates dimensions.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The number of pixels.
    public var area: Int { width * height }

    /// Orders by area, then by width.
    public static func < (lhs: Dimensions, rhs: Dimensions) -> Bool {
        (lhs.area, lhs.width) < (rhs.area, rhs.width)
    }

    /// `WIDTHxHEIGHT`, such as `1920x1080`.
    public var description: String { "\(width)x\(height)" }
}

/// A frame rate as an exact fraction: `frames` frames every `seconds` seconds (V4L2 states intervals this way).
public struct FrameRate: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The number of frames in each period.
    public let frames: UInt32
    /// The length of the period, in seconds.
    public let seconds: UInt32

    /// Creates a frame rate of `frames` frames every `seconds` seconds, such as 30000 every 1001 for NTSC's 29.97.
    ///
    /// - Precondition: Both are positive.
    public init(frames: UInt32, seconds: UInt32 = 1) {
        precondition(frames > 0 && seconds > 0, "a frame rate needs a positive number of frames and seconds")
        self.frames = frames
        self.seconds = seconds
    }

    /// Creates a whole number of frames per second.
    public init(_ framesPerSecond: Int) {
        self.init(frames: UInt32(framesPerSecond))
    }

    /// Frames per second, as a floating-point number.
    public var framesPerSecond: Double { Double(frames) / Double(seconds) }

    /// Orders by frames per second.
    public static func < (lhs: FrameRate, rhs: FrameRate) -> Bool {
        UInt64(lhs.frames) * UInt64(rhs.seconds) < UInt64(rhs.frames) * UInt64(lhs.seconds)
    }

    /// Frames per second with up to two decimals, such as `30` or `29.97`.
    public var description: String {
        if frames % seconds == 0 { return String(frames / seconds) }
        let hundredths = (UInt64(frames) * 100 + UInt64(seconds) / 2) / UInt64(seconds)
        let decimals = hundredths % 100
        return "\(hundredths / 100).\(decimals < 10 ? "0" : "")\(decimals)"
    }
}

/// What a capture device delivers: image size, frame rate and pixel format.
public struct VideoFormat: Hashable, Sendable, CustomStringConvertible {
    /// The size of each frame.
    public var dimensions: Dimensions
    /// How many frames arrive per second.
    public var frameRate: FrameRate
    /// How each frame's pixels are laid out.
    public var pixelFormat: PixelFormat

    /// Creates a video format.
    public init(dimensions: Dimensions, frameRate: FrameRate, pixelFormat: PixelFormat) {
        self.dimensions = dimensions
        self.frameRate = frameRate
        self.pixelFormat = pixelFormat
    }

    /// `WIDTHxHEIGHT@FPS/FORMAT`, such as `1280x720@30/YUYV`.
    public var description: String { "\(dimensions)@\(frameRate)/\(pixelFormat.fourCC)" }
}
