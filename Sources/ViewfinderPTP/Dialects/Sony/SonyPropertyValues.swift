import ViewfinderCore

/// What Sony's property values mean: ISO with automatic and noise-reduction flags, shutter speeds as fractions,
/// f-numbers and exposure compensation in hundredths and thousandths, and codes for the modes.
///
/// The typed values keep the camera's integer as their raw value, so setting one sends that integer back. Bodies of
/// protocol 300 give the exposure and drive modes in 32 bits, a group in the high half and the protocol-200 code in
/// the low half (P is `0x10002`, A `0x20003`); the tables read the low half, and the raw value keeps all 32. A code
/// the tables do not name is ``TypedCameraPropertyValue/unknown(_:)``, never offered as settable.
package enum SonyPropertyValues {
    package typealias Value<T: CameraPropertyValue> = TypedCameraPropertyValue<T>

    /// ISO: the speed in the low 24 bits, `0xFFFFFF` automatic; a high byte of 1 or 2 is multi-frame noise reduction
    /// (standard or high), 0x10 a speed of the extended range.
    static func iso(_ raw: Int64) -> Value<ISOValue> {
        guard (0...0xFFFF_FFFF).contains(raw) else { return .unknown(.integer(raw)) }
        let speed = Int(raw & 0xFF_FFFF)
        let flag = raw >> 24
        let base: ISOValue? = speed == 0xFF_FFFF ? .automatic : ISOValue(speed)
        guard let base else { return .unknown(.integer(raw)) }
        let shown = base.isAutomatic ? "Auto ISO" : base.localizedDisplayValue
        switch flag {
        case 0, 0x10: return Value(base, rawValue: .integer(raw))
        case 1: return Value(base, rawValue: .integer(raw), localizedDisplayValue: shown + " Multi Frame NR")
        case 2: return Value(base, rawValue: .integer(raw), localizedDisplayValue: shown + " Multi Frame NR High")
        default: return .unknown(.integer(raw))
        }
    }

    /// The ISO code of a sensitivity without noise reduction: `0xFFFFFF` for automatic.
    package static func isoCode(_ iso: ISOValue) -> Int64? {
        if iso.isAutomatic { return 0xFF_FFFF }
        return iso.numericValue.flatMap { (1...0xFF_FFFE).contains($0) ? Int64($0) : nil }
    }

    /// Shutter speed: the numerator in the high 16 bits, the denominator in the low 16; 0 is bulb.
    ///
    /// Speeds from 1/64000 to an hour are read; anything else is unknown.
    static func shutterSpeed(_ raw: Int64) -> Value<ShutterSpeedValue> {
        if raw == 0 { return Value(.bulb, rawValue: .integer(raw)) }
        guard let seconds = seconds(ofShutterCode: raw), seconds >= 1.0 / 64000, seconds <= 3600,
            let speed = ShutterSpeedValue(seconds: seconds)
        else { return .unknown(.integer(raw)) }
        return Value(speed, rawValue: .integer(raw))
    }

    /// The seconds a shutter code stands for; `nil` for bulb and codes without a denominator.
    static func seconds(ofShutterCode raw: Int64) -> Double? {
        guard (1...0xFFFF_FFFF).contains(raw), raw & 0xFFFF != 0 else { return nil }
        return Double(raw >> 16) / Double(raw & 0xFFFF)
    }

    /// The code Sony gives a speed: tenths of a second over 10 from 0.4" on (30" is 300/10), 1/N below; 0 for bulb.
    package static func shutterCode(_ speed: ShutterSpeedValue) -> Int64? {
        guard let seconds = speed.approximateSeconds else { return 0 }
        if seconds >= 0.35 {
            let tenths = Int64((seconds * 10).rounded())
            return tenths <= 0xFFFF ? tenths << 16 | 10 : nil
        }
        let denominator = Int64((1 / seconds).rounded())
        return denominator <= 0xFFFF ? 1 << 16 | denominator : nil
    }

    /// F-number: hundredths, from f/0.7 to f/91; anything else (0 or `0xFFFF` without a lens) is unknown.
    static func aperture(_ raw: Int64) -> Value<ApertureValue> {
        guard (70...9100).contains(raw), let aperture = ApertureValue(hundredthsOfFNumber: Int(raw)) else {
            return .unknown(.integer(raw))
        }
        return Value(aperture, rawValue: .integer(raw))
    }

    /// Exposure compensation: EV × 1000, thirds as 300 and 700 as the camera prints them.
    ///
    /// From -15 to +15 EV; small codes other than 0 that some bodies list (1, 2) stand for no amount of light and
    /// are unknown.
    static func exposureCompensation(_ raw: Int64) -> Value<ExposureCompensationValue> {
        guard (-15000...15000).contains(raw), raw == 0 || abs(raw) >= 250 else { return .unknown(.integer(raw)) }
        return Value(ExposureCompensationValue(thousandthsOfAStop: Int(raw)), rawValue: .integer(raw))
    }

    /// The code of an amount of compensation: thousandths, thirds written as 300 and 700 as Sony writes them.
    package static func exposureCompensationCode(_ value: ExposureCompensationValue) -> Int64 {
        let sixths = value.stops.sixths
        let whole = sixths / 6
        let fraction: Int = [0: 0, 2: 300, 3: 500, 4: 700][abs(sixths % 6)] ?? (abs(sixths % 6) * 1000 / 6)
        return Int64(whole * 1000 + (sixths < 0 ? -fraction : fraction))
    }

    /// Where a value sits on the scale a body of protocol 200 moves an exposure setting along by notches.
    ///
    /// A notch up (+1) goes to the next higher place: ISO by its place in the camera's list (automatic first),
    /// shutter speeds from the longest (bulb) to the shortest, f-numbers and exposure compensation by their number,
    /// as libgphoto2 steps them. `nil` for a property that does not move by notches, or a value that has no place.
    package static func notchPlace(of code: PTPDevicePropertyCode, _ raw: Int64, among listed: [Int64]) -> Double? {
        switch code {
        case .sonyISO, .sonyISO2:
            return listed.firstIndex(of: raw).map(Double.init)
        case .sonyShutterSpeed, .sonyShutterSpeed2:
            return raw == 0 ? -.greatestFiniteMagnitude : seconds(ofShutterCode: raw).map { -$0 }
        case .fNumber, .exposureBiasCompensation, .sonyExposureCompensation:
            return Double(raw)
        default:
            return nil
        }
    }

    /// A value with a meaning and a name from `entries`, by the low 16 bits of the code.
    private static func table<Meaning: CameraPropertyValue>(
        _ raw: Int64, _ entries: [Int64: (meaning: Meaning?, name: String?)]
    ) -> Value<Meaning> {
        guard (0...0xFFFF_FFFF).contains(raw), let entry = entries[raw & 0xFFFF] else {
            return .unknown(.integer(raw))
        }
        if let meaning = entry.meaning {
            return Value(meaning, rawValue: .integer(raw), localizedDisplayValue: entry.name)
        }
        return Value(unrecognizedRawValue: .integer(raw), localizedDisplayValue: entry.name)
    }

    /// White balance, with Sony's fluorescent kinds, underwater and custom settings.
    static func whiteBalance(_ raw: Int64) -> Value<WhiteBalanceValue> {
        table(
            raw,
            [
                1: (.custom, "Manual"), 2: (.automatic, nil), 4: (.daylight, nil), 6: (.tungsten, nil),
                7: (.flash, nil),
                0x8001: (.fluorescent, "Fluorescent: Warm White"), 0x8002: (.fluorescent, "Fluorescent: Cool White"),
                0x8003: (.fluorescent, "Fluorescent: Day White"), 0x8004: (.fluorescent, "Fluorescent: Daylight"),
                0x8010: (.cloudy, nil), 0x8011: (.shade, nil), 0x8012: (.colorTemperature, "Color Temperature"),
                0x8020: (.custom, "Custom 1"), 0x8021: (.custom, "Custom 2"), 0x8022: (.custom, "Custom 3"),
                0x8023: (.custom, "Custom"), 0x8030: (nil, "Underwater Auto"),
            ])
    }

    /// Focus modes: MF, AF-S, AF-C, AF-A and DMF.
    static func focusMode(_ raw: Int64) -> Value<FocusModeValue> {
        table(
            raw,
            [
                1: (.manual, nil), 2: (.singleAutoFocus, nil), 0x8004: (.continuousAutoFocus, nil),
                0x8005: (.automaticAutoFocus, nil), 0x8006: (nil, "DMF"),
            ])
    }

    /// Exposure modes: M, P, A, S, the automatic modes, the scenes and the movie modes, by libgphoto2's names.
    static func exposureMode(_ raw: Int64) -> Value<AutoExposureModeValue> {
        table(raw, exposureModes)
    }

    private static let exposureModes: [Int64: (meaning: AutoExposureModeValue?, name: String?)] = [
        1: (.manual, nil), 2: (.program, nil), 3: (.aperturePriority, nil), 4: (.shutterPriority, nil),
        0x8000: (.fullyAutomatic, "Intelligent Auto"), 0x8001: (nil, "Superior Auto"),
        0x8011: (nil, "Sports Action"), 0x8012: (nil, "Sunset"), 0x8013: (nil, "Night Scene"),
        0x8014: (nil, "Landscape"), 0x8015: (nil, "Macro"), 0x8016: (nil, "Hand-held Twilight"),
        0x8017: (nil, "Night Portrait"), 0x8018: (nil, "Anti Motion Blur"), 0x8041: (nil, "Sweep Panorama"),
        0x8050: (nil, "Movie (P)"), 0x8051: (nil, "Movie (A)"), 0x8052: (nil, "Movie (S)"),
        0x8053: (nil, "Movie (M)"), 0x8054: (nil, "Movie (Scene)"), 0x8059: (nil, "Movie S&Q Motion (P)"),
        0x805A: (nil, "Movie S&Q Motion (A)"), 0x805B: (nil, "Movie S&Q Motion (S)"),
        0x805C: (nil, "Movie S&Q Motion (M)"), 0x805D: (nil, "Movie S&Q Motion (Scene)"),
        0x8060: (nil, "Intelligent Auto Flash Off"), 0x8070: (nil, "Picture Effect"),
        0x8080: (nil, "High Frame Rate (P)"), 0x8081: (nil, "High Frame Rate (A)"),
        0x8082: (nil, "High Frame Rate (S)"), 0x8083: (nil, "High Frame Rate (M)"),
        0x8084: (nil, "S&Q Motion (P)"), 0x8085: (nil, "S&Q Motion (A)"), 0x8086: (nil, "S&Q Motion (S)"),
        0x8087: (nil, "S&Q Motion (M)"),
    ]

    /// Drive modes: single, the continuous speeds, the self-timers, and the bracketing modes by libgphoto2's names.
    static func driveMode(_ raw: Int64) -> Value<DriveModeValue> {
        table(raw, driveModes)
    }

    private static let driveModes: [Int64: (meaning: DriveModeValue?, name: String?)] = {
        var modes: [Int64: (meaning: DriveModeValue?, name: String?)] = [
            1: (.single, nil), 2: (.continuousHigh, "Continuous Hi"), 0x8010: (nil, "Continuous Hi+"),
            0x8012: (.continuousLow, "Continuous Lo"), 0x8013: (.continuous, nil),
            0x8014: (nil, "Continuous Speed Priority"), 0x8015: (nil, "Continuous Mid"),
            0x8005: (.selfTimer, "Self-Timer 2 s"), 0x8003: (.selfTimer, "Self-Timer 5 s"),
            0x8004: (.selfTimer, "Self-Timer 10 s"), 0x8008: (nil, "Self-Timer 10 s, 3 Pictures"),
            0x8009: (nil, "Self-Timer 10 s, 5 Pictures"), 0x800C: (nil, "Self-Timer 5 s, 3 Pictures"),
            0x800D: (nil, "Self-Timer 5 s, 5 Pictures"), 0x800E: (nil, "Self-Timer 2 s, 3 Pictures"),
            0x800F: (nil, "Self-Timer 2 s, 5 Pictures"), 0x8018: (nil, "Bracketing WB Lo"),
            0x8019: (nil, "Bracketing DRO Lo"), 0x8028: (nil, "Bracketing WB Hi"), 0x8029: (nil, "Bracketing DRO Hi"),
        ]
        // Exposure bracketing: 0x8000 | pictures << 8 | step << 4 | kind. Kinds 7 (continuous) and 6 (single) step
        // 0.3, 0.5 or 0.7 EV by the digit 3, 5 or 7; kinds 1 (continuous) and 0 (single) step 1, 2 or 3 EV.
        let brackets: [(step: Int64, text: String, fractional: Bool, pictures: [Int64])] = [
            (3, "0.3", true, [3, 5, 9]), (5, "0.5", true, [3, 5, 9]), (7, "0.7", true, [3, 5, 9]),
            (1, "1.0", false, [3, 5, 9]), (2, "2.0", false, [3, 5]), (3, "3.0", false, [3, 5]),
        ]
        for bracket in brackets {
            for count in bracket.pictures {
                let code = 0x8000 | count << 8 | bracket.step << 4
                let (continuous, single): (Int64, Int64) = bracket.fractional ? (7, 6) : (1, 0)
                modes[code | continuous] = (nil, "Bracketing C \(bracket.text) EV, \(count) Pictures")
                modes[code | single] = (nil, "Bracketing S \(bracket.text) EV, \(count) Pictures")
            }
        }
        return modes
    }()

    /// Battery: percent from 0 to 100; -1 (255 on bodies that send it unsigned) is unknown.
    static func batteryLevel(_ raw: Int64) -> Value<BatteryLevelValue> {
        guard (0...100).contains(raw) else { return .unknown(.integer(raw)) }
        return Value(BatteryLevelValue(clampingPercent: Int(raw)), rawValue: .integer(raw))
    }

    /// Shots available on the card; `0xFFFFFFFF` is unknown.
    static func shotsAvailable(_ raw: Int64) -> Value<ShotsAvailableValue> {
        guard (0..<0xFFFF_FFFF).contains(raw) else { return .unknown(.integer(raw)) }
        return Value(ShotsAvailableValue(Int(raw)), rawValue: .integer(raw))
    }
}
