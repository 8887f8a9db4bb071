#if canImport(Glibc)
import Glibc
#endif

/// The f-numbers lenses are marked with for each third and half stop from f/1.
enum NominalApertures {
    /// Thirds of a stop from f/1 to f/90, in order: the n-th is 2n sixths from f/1.
    private static let thirds: [Double] = [
        1.0, 1.1, 1.2, 1.4, 1.6, 1.8, 2, 2.2, 2.5, 2.8, 3.2, 3.5, 4, 4.5, 5, 5.6, 6.3, 7.1, 8, 9, 10, 11, 13, 14, 16,
        18,
        20, 22, 25, 29, 32, 36, 40, 45, 51, 57, 64, 72, 81, 90,
    ]

    /// Halves of a stop between whole stops, from f/1.2 to f/76: the n-th is 6n + 3 sixths from f/1.
    private static let halves: [Double] = [1.2, 1.7, 2.4, 3.3, 4.8, 6.7, 9.5, 13, 19, 27, 38, 54, 76]

    /// The nominal f-number `stops` from f/1, or the square root of two to the power of the stops beyond the tables.
    static func fNumber(for stops: ExposureStops) -> Double {
        let sixths = stops.sixths
        if sixths >= 0, sixths % 2 == 0, sixths / 2 < thirds.count { return thirds[sixths / 2] }
        if sixths >= 3, sixths % 6 == 3, sixths / 6 < halves.count { return halves[sixths / 6] }
        return exp2(stops.approximateValue / 2)
    }
}
