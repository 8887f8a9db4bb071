#if canImport(Glibc)
import Glibc
#endif

/// The sensitivities cameras print for each third and half stop from ISO 100.
enum NominalSensitivities {
    /// The thirds of a decade cameras print, in hundreds: ISO 100, 125, 160, … 800, then the same times ten.
    private static let decade: [Double] = [100, 125, 160, 200, 250, 320, 400, 500, 640, 800]

    /// The nominal ISO `stops` from ISO 100: exact doublings for whole stops (ISO 12800, 25600), the decade series
    /// for thirds (ISO 10000, 16000), two significant digits for halves.
    static func sensitivity(for stops: ExposureStops) -> Int {
        let exact = 100 * exp2(stops.approximateValue)
        guard exact.isFinite, exact < 1e15 else { return Int.max }
        switch ((stops.sixths % 6) + 6) % 6 {
        case 0:
            return max(1, Int(exact.rounded(.down)))
        case 2, 4:
            let power = pow(10, floor(log10(exact / 100)))
            let nearest = (decade + [1000]).min { abs(log2(exact / ($0 * power))) < abs(log2(exact / ($1 * power))) }
            return max(1, Int(((nearest ?? 100) * power).rounded()))
        default:
            let digits = pow(10, floor(log10(exact)) - 1)
            return max(1, Int(((exact / digits).rounded() * digits).rounded()))
        }
    }
}
