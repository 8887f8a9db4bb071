#if canImport(Glibc)
import Glibc
#endif

/// The exposure settings a camera offers and the arithmetic that ties them to how bright an image comes out.
///
/// Exposure value at ISO 100: `EV100 = log2(N² / t) − log2(S / 100)` for f-number `N`, shutter time `t` in
/// seconds and ISO speed `S`. A scene of brightness `sceneEV` is correctly exposed when the settings' EV100 equals it;
/// each EV below it doubles the light (``exposureFactor(sceneEV:fNumber:seconds:iso:)``).
enum ExposureModel {
    /// ISO speeds in third stops from 100 to 25600; `0xFFFF` is automatic.
    static let isoSpeeds: [UInt16] = [
        100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 2000, 2500, 3200, 4000, 5000, 6400,
        8000, 10000, 12800, 16000, 20000, 25600,
    ]
    /// The ISO value that means automatic.
    static let automaticISO: UInt16 = 0xFFFF

    /// Shutter speeds from 30 s to 1/8000 s in third stops, as (wire value in 1/10000 s, nominal seconds).
    ///
    /// The wire unit cannot tell third stops apart beyond 1/2500 s, so the fastest entries are 1/3200, 1/4000 and
    /// 1/8000 s, carried as 3, 2 and 1.
    static let shutterSpeeds: [(value: UInt32, seconds: Double)] = {
        let slow: [Double] = [30, 25, 20, 15, 13, 10, 8, 6, 5, 4, 3.2, 2.5, 2, 1.6, 1.3, 1, 0.8, 0.6, 0.5, 0.4, 0.3]
        let denominators: [Double] = [
            4, 5, 6, 8, 10, 13, 15, 20, 25, 30, 40, 50, 60, 80, 100, 125, 160, 200, 250, 320, 400, 500, 640, 800,
            1000, 1250, 1600, 2000, 2500,
        ]
        var speeds = slow.map { (UInt32(($0 * 10000).rounded()), $0) }
        speeds += denominators.map { (UInt32((10000 / $0).rounded()), 1 / $0) }
        speeds += [(3, 1.0 / 3200), (2, 1.0 / 4000), (1, 1.0 / 8000)]
        return speeds
    }()

    /// Apertures of an f/1.4–f/22 lens in third stops, as f-number × 100.
    static let apertures: [UInt16] = [
        140, 160, 180, 200, 220, 250, 280, 320, 350, 400, 450, 500, 560, 630, 710, 800, 900, 1000, 1100, 1300, 1400,
        1600, 1800, 2000, 2200,
    ]

    /// Exposure compensation from −5 to +5 EV in third stops, as EV × 1000.
    static let compensations: [Int16] = (-15...15).map { Int16((Double($0) * 1000 / 3).rounded()) }

    /// The nominal seconds of a shutter speed's wire value.
    static func seconds(ofShutter value: UInt32) -> Double {
        shutterSpeeds.first { $0.value == value }?.seconds ?? Double(value) / 10000
    }

    /// The EV100 of a combination of settings.
    static func ev100(fNumber: Double, seconds: Double, iso: Double) -> Double {
        log2(fNumber * fNumber / seconds) - log2(iso / 100)
    }

    /// How much more light than a correct exposure the settings let in: 1 is correct, 2 is one stop over.
    static func exposureFactor(sceneEV: Double, fNumber: Double, seconds: Double, iso: Double) -> Double {
        exp2(sceneEV - ev100(fNumber: fNumber, seconds: seconds, iso: iso))
    }

    /// The shutter speed closest to `seconds`, in stops.
    static func nearestShutter(to seconds: Double) -> UInt32 {
        shutterSpeeds.min { abs(log2($0.seconds / seconds)) < abs(log2($1.seconds / seconds)) }!.value
    }

    /// The aperture closest to `fNumber`, in stops.
    static func nearestAperture(to fNumber: Double) -> UInt16 {
        apertures.min { abs(log2(Double($0) / 100 / fNumber)) < abs(log2(Double($1) / 100 / fNumber)) }!
    }

    /// The ISO speed closest to `iso`, in stops.
    static func nearestISO(to iso: Double) -> UInt16 {
        isoSpeeds.min { abs(log2(Double($0) / iso)) < abs(log2(Double($1) / iso)) }!
    }
}
