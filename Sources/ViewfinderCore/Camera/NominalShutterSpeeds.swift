#if canImport(Glibc)
import Glibc
#endif

/// The shutter speeds cameras print for each third and half stop, and the rules that turn durations into them.
enum NominalShutterSpeeds {
    /// One step: its distance from one second in sixths of a stop, and its nominal duration.
    private struct Step {
        let sixths: Int
        let seconds: Double
    }

    /// Thirds of a stop, from 1/32000 to 60".
    private static let thirds: [Step] = {
        let fast: [Double] = [
            32000, 25000, 20000, 16000, 12800, 10000, 8000, 6400, 5000, 4000, 3200, 2500, 2000, 1600, 1250, 1000, 800,
            640, 500, 400, 320, 250, 200, 160, 125, 100, 80, 60, 50, 40, 30, 25, 20, 15, 13, 10, 8, 6, 5, 4,
        ]
        let slow: [Double] = [
            0.3, 0.4, 0.5, 0.6, 0.8, 1, 1.3, 1.6, 2, 2.5, 3.2, 4, 5, 6, 8, 10, 13, 15, 20, 25, 30, 40, 50, 60,
        ]
        let fastSteps = fast.enumerated().map { Step(sixths: -90 + 2 * $0.offset, seconds: 1 / $0.element) }
        let slowSteps = slow.enumerated().map { Step(sixths: -10 + 2 * $0.offset, seconds: $0.element) }
        return fastSteps + slowSteps
    }()

    /// Halves of a stop that fall between thirds, from 1/24000 to 45".
    private static let halves: [Step] = {
        let fast: [Double] = [24000, 12000, 6000, 3000, 1500, 750, 350, 180, 90, 45, 20, 10, 6]
        let slow: [Double] = [0.3, 0.7, 1.5, 3, 6, 10, 20, 45]
        let fastSteps = fast.enumerated().map { Step(sixths: -87 + 6 * $0.offset, seconds: 1 / $0.element) }
        let slowSteps = slow.enumerated().map { Step(sixths: -9 + 6 * $0.offset, seconds: $0.element) }
        return fastSteps + slowSteps
    }()

    /// The steps a duration can snap to: every third, and the halves whose nominal speed no third shares.
    private static let snapTargets: [Step] = {
        let thirdSpeeds = Set(thirds.map(\.seconds))
        return thirds + halves.filter { !thirdSpeeds.contains($0.seconds) }
    }()

    /// The nominal step nearest to a duration, within a sixth of a stop; beyond the table, the nearest third or half.
    static func stops(nearestTo seconds: Double) -> ExposureStops? {
        let nearest = snapTargets.min { abs(log2(seconds / $0.seconds)) < abs(log2(seconds / $1.seconds)) }
        if let nearest, abs(log2(seconds / nearest.seconds)) <= 1.0 / 6 {
            return ExposureStops(sixths: nearest.sixths)
        }
        return ExposureStops(approximately: log2(seconds))
    }

    /// The nominal duration of a step, or 2 to the power of its stops when no camera names it.
    static func seconds(for stops: ExposureStops) -> Double {
        let named = thirds.first { $0.sixths == stops.sixths } ?? halves.first { $0.sixths == stops.sixths }
        return named?.seconds ?? exp2(stops.approximateValue)
    }

    /// "1/250" under 0.3 s; "0.3\"" or "2.5\"" with one decimal under 10 s; "30\"" from there.
    ///
    /// Durations beyond any camera's (stops far from a second) are written as Swift writes the number, such as
    /// "1/1e+30", rather than converted to an integer that cannot hold them.
    static func text(forSeconds seconds: Double) -> String {
        if seconds < 0.28 {
            let denominator = (1 / seconds).rounded()
            return "1/" + (denominator < 1e15 ? String(Int(denominator)) : String(describing: denominator))
        }
        guard seconds < 1e14 else { return "\(seconds)\"" }
        let tenths = Int((seconds * 10).rounded())
        if tenths < 100 && tenths % 10 != 0 {
            return "\(tenths / 10).\(tenths % 10)\""
        }
        return "\((tenths + 5) / 10)\""
    }
}
