/// An option of a camera's live view publisher, set with `liveViewPublisher(options:)` or
/// `applyLiveViewOptions(_:)`.
///
/// ```swift
/// camera.applyLiveViewOptions([.skipImageDecoding: true, .maximumFramesPerSecond: 10])
/// ```
///
/// There is one live view publisher per camera, so options affect every subscriber.
public struct LiveViewOption: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The option's name.
    public let rawValue: String

    /// Creates an option from its name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Skips decoding: frames carry their JPEG data but no decoded image.
    ///
    /// This saves the decoding work, for pipelines that decode or forward the JPEG themselves. `false` when not
    /// set.
    public static let skipImageDecoding = LiveViewOption(rawValue: "skipImageDecoding")

    /// The most frames fetched from the camera per second, a number above zero; no limit when not set.
    ///
    /// Demand already keeps fetching at the consumer's pace; this caps it further, for consumers that always want
    /// the next frame but have no use for every one.
    public static let maximumFramesPerSecond = LiveViewOption(rawValue: "maximumFramesPerSecond")

    /// Favours frame rate over image quality.
    ///
    /// Frames are decoded at half size, which takes about a quarter of the work. `false` when not set.
    public static let favorHighFrameRate = LiveViewOption(rawValue: "favorHighFrameRate")

    /// The option's name.
    public var description: String { rawValue }
}

/// The value of a ``LiveViewOption``: a flag or a number, written as a literal.
///
/// ```swift
/// let options: [LiveViewOption: LiveViewOptionValue] = [.skipImageDecoding: true, .maximumFramesPerSecond: 15]
/// ```
public enum LiveViewOptionValue: Hashable, Sendable, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, CustomStringConvertible
{
    /// A flag, for ``LiveViewOption/skipImageDecoding`` and ``LiveViewOption/favorHighFrameRate``.
    case flag(Bool)
    /// A number, for ``LiveViewOption/maximumFramesPerSecond``.
    case number(Double)

    /// Creates a flag.
    public init(booleanLiteral value: Bool) {
        self = .flag(value)
    }

    /// Creates a number.
    public init(integerLiteral value: Int) {
        self = .number(Double(value))
    }

    /// Creates a number.
    public init(floatLiteral value: Double) {
        self = .number(value)
    }

    /// The flag, or whether the number is above zero.
    public var isOn: Bool {
        switch self {
        case .flag(let flag): return flag
        case .number(let number): return number > 0
        }
    }

    /// The number, or `nil` for a flag.
    public var number: Double? {
        guard case .number(let number) = self else { return nil }
        return number
    }

    /// "true", "false" or the number.
    public var description: String {
        switch self {
        case .flag(let flag): return String(flag)
        case .number(let number): return String(number)
        }
    }
}

/// What a set of live view options asks for, resolved for a camera implementation.
public struct LiveViewSettings: Hashable, Sendable {
    /// Whether frames skip decoding and carry only their JPEG data.
    public var skipsImageDecoding: Bool
    /// The most frames to fetch per second, or `nil` for no limit.
    public var maximumFramesPerSecond: Double?
    /// Whether to favour frame rate over image quality.
    public var favorsHighFrameRate: Bool

    /// Resolves options: flags are on when `true`, the frame rate limit applies when it is a number above zero.
    public init(options: [LiveViewOption: LiveViewOptionValue]) {
        skipsImageDecoding = options[.skipImageDecoding]?.isOn ?? false
        favorsHighFrameRate = options[.favorHighFrameRate]?.isOn ?? false
        maximumFramesPerSecond = options[.maximumFramesPerSecond]?.number.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    }
}
