/// An amount of light in photographic stops: whole stops plus a third, a half or two thirds, with a sign.
///
/// One stop doubles (or halves) the light: ISO 200 is one stop above ISO 100, 1/125 one stop above 1/250, f/5.6
/// one stop above f/8. Cameras step their exposure settings in thirds or halves of a stop, so a value is whole stops
/// plus one of those fractions. Sums of thirds and halves can land on sixths, which are kept exactly.
///
/// ```swift
/// let oneAndAThird = ExposureStops(wholeStops: 1, fraction: .oneThird)
/// let sum = oneAndAThird + ExposureStops(wholeStops: 0, fraction: .twoThirds)  // 2 stops
/// print(sum.description)  // "+2"
/// ```
public struct ExposureStops: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The part of a stop beyond the whole stops.
    public enum Fraction: Int, Hashable, Sendable, CaseIterable {
        /// No fraction: a whole number of stops.
        case none = 0
        /// One sixth of a stop, from adding thirds and halves.
        case oneSixth = 1
        /// One third of a stop.
        case oneThird = 2
        /// One half of a stop.
        case oneHalf = 3
        /// Two thirds of a stop.
        case twoThirds = 4
        /// Five sixths of a stop, from adding thirds and halves.
        case fiveSixths = 5

        /// The fraction as a vulgar-fraction character, such as "⅓"; empty for ``none``.
        public var symbol: String {
            switch self {
            case .none: return ""
            case .oneSixth: return "⅙"
            case .oneThird: return "⅓"
            case .oneHalf: return "½"
            case .twoThirds: return "⅔"
            case .fiveSixths: return "⅚"
            }
        }
    }

    /// The largest magnitude a value holds, in whole stops; larger amounts are limited to it.
    public static let maximumMagnitude = 1_000_000

    /// No change in light.
    public static let zero = ExposureStops(sixths: 0)

    /// The amount in sixths of a stop, the unit every third and half is a whole multiple of.
    public let sixths: Int

    /// Creates an amount from a number of sixths of a stop, limited to ``maximumMagnitude`` stops either way.
    public init(sixths: Int) {
        let limit = Self.maximumMagnitude * 6
        self.sixths = min(max(sixths, -limit), limit)
    }

    /// Creates an amount from whole stops, a fraction and a sign.
    ///
    /// - Parameters:
    ///   - wholeStops: The whole stops, counted away from zero; a negative count also makes the amount negative.
    ///   - fraction: The part of a stop beyond the whole stops.
    ///   - isNegative: Whether the amount is below zero.
    public init(wholeStops: Int, fraction: Fraction = .none, isNegative: Bool = false) {
        let whole = min(wholeStops.magnitude, UInt(Self.maximumMagnitude))
        let magnitude = Int(whole) * 6 + fraction.rawValue
        self.init(sixths: isNegative != (wholeStops < 0) ? -magnitude : magnitude)
    }

    /// Creates the amount nearest to a number of stops, rounded to a whole stop, a third or a half.
    ///
    /// Exposure settings are nominal: f/11 is 6.92 stops from f/1 and ISO 125 is 0.32 stops above ISO 100. Rounding
    /// to the steps cameras use gives 7 and ⅓. Returns `nil` for a number that is not finite.
    public init?(approximately stops: Double) {
        guard stops.isFinite else { return nil }
        let limited = min(max(stops, -Double(Self.maximumMagnitude)), Double(Self.maximumMagnitude))
        let whole = limited.rounded(.down)
        let remainder = limited - whole
        // Whole, third, half and two-thirds points of the stop, in sixths; ties go to the earlier point.
        let points = [0, 2, 3, 4, 6]
        var nearest = 0
        for point in points where abs(remainder - Double(point) / 6) < abs(remainder - Double(nearest) / 6) {
            nearest = point
        }
        self.init(sixths: Int(whole) * 6 + nearest)
    }

    /// The number of whole stops, counted away from zero.
    public var wholeStops: Int { Int(sixths.magnitude / 6) }

    /// The part of a stop beyond ``wholeStops``, counted away from zero.
    public var fraction: Fraction {
        Fraction(rawValue: Int(sixths.magnitude % 6)) ?? .none
    }

    /// Whether the amount is below zero.
    public var isNegative: Bool { sixths < 0 }

    /// The amount as a number of stops, such as 1.333 for 1⅓.
    public var approximateValue: Double { Double(sixths) / 6 }

    /// The amount written the way cameras show exposure compensation: "+1⅓", "−⅔", "+2", "0".
    ///
    /// The minus sign is U+2212 MINUS SIGN, as in camera displays, not a hyphen.
    public var description: String {
        guard sixths != 0 else { return "0" }
        let whole = wholeStops == 0 && fraction != .none ? "" : String(wholeStops)
        return (isNegative ? "\u{2212}" : "+") + whole + fraction.symbol
    }

    /// Whether the first amount is less light than the second.
    public static func < (lhs: ExposureStops, rhs: ExposureStops) -> Bool {
        lhs.sixths < rhs.sixths
    }

    /// The sum of two amounts.
    public static func + (lhs: ExposureStops, rhs: ExposureStops) -> ExposureStops {
        ExposureStops(sixths: lhs.sixths + rhs.sixths)
    }

    /// The first amount less the second: how far the second is below the first.
    public static func - (lhs: ExposureStops, rhs: ExposureStops) -> ExposureStops {
        ExposureStops(sixths: lhs.sixths - rhs.sixths)
    }

    /// The amount with its sign flipped.
    public static prefix func - (operand: ExposureStops) -> ExposureStops {
        ExposureStops(sixths: -operand.sixths)
    }

    /// How far `other` is from this amount: positive when `other` is more light.
    public func difference(to other: ExposureStops) -> ExposureStops {
        other - self
    }
}
