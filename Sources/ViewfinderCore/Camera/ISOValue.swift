#if canImport(Glibc)
import Glibc
#endif

/// A sensor sensitivity: a number such as ISO 800, or automatic ISO.
///
/// ```swift
/// let iso = ISOValue(800)!
/// print(iso.localizedDisplayValue)  // "ISO 800"
/// print(iso.stopsFromISO100!)       // "+3"
/// ```
public struct ISOValue: CameraPropertyValue {
    private enum Storage: Hashable, Sendable {
        case automatic
        case numeric(Int)
    }

    private let storage: Storage

    private init(storage: Storage) {
        self.storage = storage
    }

    /// Creates a fixed sensitivity, such as 800 for ISO 800; `nil` unless the number is above zero.
    public init?(_ numericValue: Int) {
        guard numericValue > 0 else { return nil }
        self.init(storage: .numeric(numericValue))
    }

    /// Creates the nominal sensitivity `stops` above ISO 100, such as ISO 800 for 3 stops and ISO 1000 for 3⅓: the
    /// number cameras print, for cameras that report sensitivities in stops.
    public init(stopsFromISO100 stops: ExposureStops) {
        self = ISOValue(NominalSensitivities.sensitivity(for: stops)) ?? .automatic
    }

    /// Automatic sensitivity: the camera chooses the ISO.
    public static let automatic = ISOValue(storage: .automatic)

    /// The sensitivity as a number, such as 800; `nil` for ``automatic``.
    public var numericValue: Int? {
        guard case .numeric(let value) = storage else { return nil }
        return value
    }

    /// Whether the camera chooses the sensitivity.
    public var isAutomatic: Bool { storage == .automatic }

    /// How many stops more sensitive than ISO 100 this is, to the nearest third or half; `nil` for ``automatic``.
    ///
    /// ISO 125 is ⅓ stop, ISO 800 three stops, ISO 50 one stop below (−1).
    public var stopsFromISO100: ExposureStops? {
        numericValue.flatMap { ExposureStops(approximately: log2(Double($0) / 100)) }
    }

    /// "ISO 800", or "Auto ISO" for ``automatic``.
    public var localizedDisplayValue: String {
        numericValue.map { "ISO \($0)" } ?? "Auto ISO"
    }
}

extension ISOValue {
    /// ISO 25.
    public static let iso25 = ISOValue(storage: .numeric(25))
    /// ISO 50.
    public static let iso50 = ISOValue(storage: .numeric(50))
    /// ISO 64.
    public static let iso64 = ISOValue(storage: .numeric(64))
    /// ISO 80.
    public static let iso80 = ISOValue(storage: .numeric(80))
    /// ISO 100.
    public static let iso100 = ISOValue(storage: .numeric(100))
    /// ISO 125.
    public static let iso125 = ISOValue(storage: .numeric(125))
    /// ISO 160.
    public static let iso160 = ISOValue(storage: .numeric(160))
    /// ISO 200.
    public static let iso200 = ISOValue(storage: .numeric(200))
    /// ISO 250.
    public static let iso250 = ISOValue(storage: .numeric(250))
    /// ISO 320.
    public static let iso320 = ISOValue(storage: .numeric(320))
    /// ISO 400.
    public static let iso400 = ISOValue(storage: .numeric(400))
    /// ISO 500.
    public static let iso500 = ISOValue(storage: .numeric(500))
    /// ISO 640.
    public static let iso640 = ISOValue(storage: .numeric(640))
    /// ISO 800.
    public static let iso800 = ISOValue(storage: .numeric(800))
    /// ISO 1000.
    public static let iso1000 = ISOValue(storage: .numeric(1000))
    /// ISO 1250.
    public static let iso1250 = ISOValue(storage: .numeric(1250))
    /// ISO 1600.
    public static let iso1600 = ISOValue(storage: .numeric(1600))
    /// ISO 2000.
    public static let iso2000 = ISOValue(storage: .numeric(2000))
    /// ISO 2500.
    public static let iso2500 = ISOValue(storage: .numeric(2500))
    /// ISO 3200.
    public static let iso3200 = ISOValue(storage: .numeric(3200))
    /// ISO 4000.
    public static let iso4000 = ISOValue(storage: .numeric(4000))
    /// ISO 5000.
    public static let iso5000 = ISOValue(storage: .numeric(5000))
    /// ISO 6400.
    public static let iso6400 = ISOValue(storage: .numeric(6400))
    /// ISO 8000.
    public static let iso8000 = ISOValue(storage: .numeric(8000))
    /// ISO 10000.
    public static let iso10000 = ISOValue(storage: .numeric(10000))
    /// ISO 12800.
    public static let iso12800 = ISOValue(storage: .numeric(12800))
    /// ISO 25600.
    public static let iso25600 = ISOValue(storage: .numeric(25600))
    /// ISO 51200.
    public static let iso51200 = ISOValue(storage: .numeric(51200))
    /// ISO 102400.
    public static let iso102400 = ISOValue(storage: .numeric(102_400))
}
