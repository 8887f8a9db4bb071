/// The camera's exposure indicator: how far, in stops, the exposure its settings make lies from the one its light
/// meter calls right, signed as the camera reports it.
public struct LightMeterReadingValue: CameraPropertyValue, Comparable {
    /// The reading in twelfths of a stop, as Nikon cameras report it.
    public let twelfthsOfAStop: Int

    /// Creates a reading of `twelfthsOfAStop` twelfths of a stop.
    public init(twelfthsOfAStop: Int) {
        self.twelfthsOfAStop = twelfthsOfAStop
    }

    /// The reading in stops.
    public var stops: Double { Double(twelfthsOfAStop) / 12 }

    /// The reading to a tenth of a stop with its sign, such as "+0.3 EV", "-1.0 EV" or "0.0 EV".
    public var localizedDisplayValue: String {
        let tenths = Int((Double(twelfthsOfAStop) * 10 / 12).rounded())
        let sign = tenths > 0 ? "+" : tenths < 0 ? "-" : ""
        return "\(sign)\(abs(tenths) / 10).\(abs(tenths) % 10) EV"
    }

    /// Whether the first reading is lower.
    public static func < (lhs: LightMeterReadingValue, rhs: LightMeterReadingValue) -> Bool {
        lhs.twelfthsOfAStop < rhs.twelfthsOfAStop
    }
}
