#if canImport(Glibc)
import Glibc
#endif

/// A lens aperture as an f-number, such as f/5.6, or an aperture the camera chooses.
///
/// The value keeps the nominal f-number the camera reports, to a hundredth, and shows it the way lenses are
/// marked: one decimal below f/10 ("f/5.6", "f/8"), whole numbers from f/10 ("f/11", "f/22").
///
/// ```swift
/// let aperture = ApertureValue(fNumber: 5.6)!
/// print(aperture.localizedDisplayValue)  // "f/5.6"
/// print(aperture.stopsFromF1!)           // "+5"
/// ```
public struct ApertureValue: CameraPropertyValue {
    private enum Storage: Hashable, Sendable {
        case automatic
        case fNumber(hundredths: Int)
    }

    private let storage: Storage

    private init(storage: Storage) {
        self.storage = storage
    }

    /// An aperture the camera chooses.
    public static let automatic = ApertureValue(storage: .automatic)

    /// Creates an aperture from an f-number in hundredths, such as 560 for f/5.6: the unit of ISO 15740 cameras.
    ///
    /// Returns `nil` unless the number is above zero.
    public init?(hundredthsOfFNumber hundredths: Int) {
        guard hundredths > 0 else { return nil }
        self.init(storage: .fNumber(hundredths: hundredths))
    }

    /// Creates an aperture from an f-number, such as 5.6; `nil` unless it is above zero and below a million.
    public init?(fNumber: Double) {
        guard fNumber.isFinite, fNumber < 1_000_000 else { return nil }
        self.init(hundredthsOfFNumber: Int((fNumber * 100).rounded()))
    }

    /// Creates the nominal aperture `stops` less light than f/1, such as f/5.6 for 5 stops and f/6.3 for 5⅓: the
    /// f-number lenses are marked with, for cameras that report apertures in stops.
    public init(stopsFromF1 stops: ExposureStops) {
        self = ApertureValue(fNumber: NominalApertures.fNumber(for: stops)) ?? .automatic
    }

    /// Whether the camera chooses the aperture.
    public var isAutomatic: Bool { storage == .automatic }

    /// The f-number in hundredths, such as 560 for f/5.6; `nil` for ``automatic``.
    public var hundredthsOfFNumber: Int? {
        guard case .fNumber(let hundredths) = storage else { return nil }
        return hundredths
    }

    /// The f-number, such as 5.6; `nil` for ``automatic``.
    public var fNumber: Double? {
        hundredthsOfFNumber.map { Double($0) / 100 }
    }

    /// How many stops less light than f/1 this lets in, to the nearest third or half; `nil` for ``automatic``.
    ///
    /// f/1.4 is one stop, f/8 six, f/22 nine: each stop multiplies the f-number by the square root of two.
    public var stopsFromF1: ExposureStops? {
        fNumber.flatMap { ExposureStops(approximately: 2 * log2($0)) }
    }

    /// "f/5.6", "f/8", "f/22", or "Auto" for ``automatic``.
    public var localizedDisplayValue: String {
        guard let hundredths = hundredthsOfFNumber else { return "Auto" }
        if hundredths < 995 {
            let tenths = (hundredths + 5) / 10
            return tenths % 10 == 0 ? "f/\(tenths / 10)" : "f/\(tenths / 10).\(tenths % 10)"
        }
        return "f/\((hundredths + 50) / 100)"
    }
}
