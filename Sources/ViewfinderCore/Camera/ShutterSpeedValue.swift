#if canImport(Glibc)
import Glibc
#endif

/// How long the shutter stays open: a timed exposure such as 1/250 or 30", or bulb.
///
/// A timed speed is held as its distance in stops from one second, so that speeds compare and add exactly; the
/// text is the nominal speed cameras print for that step. Speeds made from durations snap to the nearest nominal
/// step, so 1/3 s and 0.3 s are the same speed, shown as 0.3".
///
/// ```swift
/// let speed = ShutterSpeedValue(seconds: 1.0 / 250)!
/// print(speed.localizedDisplayValue)   // "1/250"
/// print(speed.stopsFromOneSecond!)     // "−8"
/// ```
public struct ShutterSpeedValue: CameraPropertyValue {
    private enum Storage: Hashable, Sendable {
        case bulb
        case timed(ExposureStops)
    }

    private let storage: Storage

    private init(storage: Storage) {
        self.storage = storage
    }

    /// Bulb: the shutter stays open for as long as it is held.
    public static let bulb = ShutterSpeedValue(storage: .bulb)

    /// Creates the speed a given number of stops from one second; positive is longer.
    public init(stopsFromOneSecond stops: ExposureStops) {
        self.init(storage: .timed(stops))
    }

    /// Creates the nominal speed nearest to a duration in seconds; `nil` unless the duration is above zero.
    public init?(seconds: Double) {
        guard seconds > 0, seconds.isFinite, let stops = NominalShutterSpeeds.stops(nearestTo: seconds) else {
            return nil
        }
        self.init(stopsFromOneSecond: stops)
    }

    /// Creates the nominal speed nearest to a duration in units of 100 µs (ten-thousandths of a second).
    ///
    /// The unit is the one ISO 15740 cameras use for their exposure time and V4L2 for absolute exposure time:
    /// 40 is 1/250, 3333 and 3000 are both 0.3", 300000 is 30". Returns `nil` unless the duration is above zero.
    public init?(tenThousandthsOfASecond: Int64) {
        self.init(seconds: Double(tenThousandthsOfASecond) / 10_000)
    }

    /// Creates the nominal speed nearest to a duration; `nil` unless the duration is above zero.
    public init?(duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init(seconds: Double(seconds) + Double(attoseconds) * 1e-18)
    }

    /// Whether this is bulb.
    public var isBulb: Bool { storage == .bulb }

    /// The distance in stops from one second, positive for longer exposures; `nil` for ``bulb``.
    public var stopsFromOneSecond: ExposureStops? {
        guard case .timed(let stops) = storage else { return nil }
        return stops
    }

    /// The nominal duration in seconds, such as 0.004 for 1/250; `nil` for ``bulb``.
    public var approximateSeconds: Double? {
        stopsFromOneSecond.map(NominalShutterSpeeds.seconds(for:))
    }

    /// "1/250" for speeds under 0.3 s, "0.3\"", "2.5\"" or "30\"" for longer ones, "Bulb" for ``bulb``.
    public var localizedDisplayValue: String {
        guard let seconds = approximateSeconds else { return "Bulb" }
        return NominalShutterSpeeds.text(forSeconds: seconds)
    }
}
