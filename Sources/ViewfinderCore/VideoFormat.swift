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
///
/// ```swift
/// let ntsc = FrameRate(frames: 30000, seconds: 1001)   // 29.97; nil for a zero
/// let typed = FrameRate(framesPerSecond: 12.5)         // from what a user typed; nil for 0, NaN or too much
/// let thirty: FrameRate = 30
/// ```
public struct FrameRate: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The number of frames in each period.
    public let frames: UInt32
    /// The length of the period, in seconds.
    public let seconds: UInt32

    /// Creates a frame rate of `frames` frames every `seconds` seconds, such as 30000 every 1001 for NTSC's 29.97;
    /// `nil` when either is zero, as a driver may report.
    public init?(frames: UInt32, seconds: UInt32 = 1) {
        guard frames > 0, seconds > 0 else { return nil }
        self.frames = frames
        self.seconds = seconds
    }

    /// Creates a whole number of frames per second; `nil` for zero, a negative number or one beyond 32 bits.
    public init?(framesPerSecond: Int) {
        guard let frames = UInt32(exactly: framesPerSecond) else { return nil }
        self.init(frames: frames)
    }

    /// Creates the frame rate nearest `framesPerSecond` in thousandths of a frame per second, such as 29.97 from
    /// what a user typed; `nil` for zero, a negative or non-finite number, or a rate beyond four million.
    public init?(framesPerSecond: Double) {
        guard framesPerSecond.isFinite, framesPerSecond > 0, framesPerSecond < Double(UInt32.max / 1000) else {
            return nil
        }
        if framesPerSecond.rounded() == framesPerSecond {
            self.init(frames: UInt32(framesPerSecond))
        } else {
            self.init(frames: UInt32((framesPerSecond * 1000).rounded()), seconds: 1000)
        }
    }

    /// A whole number of frames per second written in code, such as `30`; the literal must be above zero.
    public init(integerLiteral framesPerSecond: UInt32) {
        precondition(framesPerSecond > 0, "a frame rate literal must be above zero")
        frames = framesPerSecond
        seconds = 1
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
