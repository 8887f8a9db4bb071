/// An exposure compensation: how far from the metered exposure the camera should aim, in stops.
///
/// ```swift
/// let compensation = ExposureCompensationValue(thousandthsOfAStop: -667)
/// print(compensation.localizedDisplayValue)  // "−⅔"
/// ```
public struct ExposureCompensationValue: CameraPropertyValue, Comparable {
    /// The compensation in stops; positive is brighter.
    public let stops: ExposureStops

    /// Creates a compensation of the given stops.
    public init(stops: ExposureStops) {
        self.stops = stops
    }

    /// Creates the compensation nearest to an amount in thousandths of a stop, such as 1333 for +1⅓.
    ///
    /// The unit is the one ISO 15740 cameras use. Amounts round to the nearest third or half, since cameras write
    /// ⅓ as 333 or 300 and ⅔ as 667 or 700.
    public init(thousandthsOfAStop thousandths: Int) {
        self.init(stops: ExposureStops(approximately: Double(thousandths) / 1000) ?? .zero)
    }

    /// No compensation.
    public static let zero = ExposureCompensationValue(stops: .zero)

    /// The compensation in thousandths of a stop, such as 1333 for +1⅓.
    public var thousandthsOfAStop: Int {
        Int((stops.approximateValue * 1000).rounded())
    }

    /// "+1⅓", "−⅔", "+2", or "0" for no compensation.
    public var localizedDisplayValue: String { stops.description }

    /// Whether the first compensation is darker than the second.
    public static func < (lhs: ExposureCompensationValue, rhs: ExposureCompensationValue) -> Bool {
        lhs.stops < rhs.stops
    }
}
