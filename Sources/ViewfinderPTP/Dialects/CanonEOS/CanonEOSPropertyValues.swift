import ViewfinderCore

/// What Canon's EOS property values mean: exposure settings in eighths of a stop, and codes for the modes.
///
/// EOS cameras count exposure in eighths of a stop from a fixed point (f/1 at 8, one second at 0x38, ISO 100 at
/// 0x48), with thirds at 3 and 5 eighths past a whole stop and halves at 4. The typed values keep the camera's code
/// as their raw value, so setting one sends that code back. The codes have meanings only within the ranges
/// libgphoto2's tables give (f/1 to f/91, 30 s to 1/16000, ISO 6 to 819200); a code outside them, or a mode no table
/// names, is ``TypedCameraPropertyValue/unknown(_:)``.
package enum CanonEOSPropertyValues {
    package typealias Value<T: CameraPropertyValue> = TypedCameraPropertyValue<T>

    /// The stops `eighths` eighths from a code's origin: whole stops, and the third or half that 3, 4 or 5 eighths
    /// stand for; other eighths to the nearest third or half.
    package static func stops(eighths: Int) -> ExposureStops {
        let whole = eighths >= 0 ? eighths / 8 : -((-eighths + 7) / 8)
        let remainder = eighths - whole * 8
        let sixths: Int? =
            switch remainder {
            case 0: 0
            case 3: 2
            case 4: 3
            case 5: 4
            default: nil
            }
        guard let sixths else {
            return ExposureStops(approximately: Double(eighths) / 8) ?? .zero
        }
        return ExposureStops(sixths: whole * 6 + sixths)
    }

    /// The eighths that stand for `stops`, or `nil` for a sixth, which EOS codes do not have.
    package static func eighths(_ stops: ExposureStops) -> Int? {
        let whole = stops.sixths >= 0 ? stops.sixths / 6 : -((-stops.sixths + 5) / 6)
        let remainder = stops.sixths - whole * 6
        let eighths: Int? =
            switch remainder {
            case 0: 0
            case 2: 3
            case 3: 4
            case 4: 5
            default: nil
            }
        return eighths.map { whole * 8 + $0 }
    }

    /// ISO: eighths from ISO 100 at 0x48, from ISO 6 (0x28) to ISO 819200 (0xB0); 0 and 1 are automatic.
    static func iso(_ raw: Int64) -> Value<ISOValue> {
        if raw == 0 || raw == 1 { return Value(.automatic, rawValue: .integer(raw)) }
        guard (0x28...0xB0).contains(raw) else { return .unknown(.integer(raw)) }
        return Value(ISOValue(stopsFromISO100: stops(eighths: Int(raw) - 0x48)), rawValue: .integer(raw))
    }

    /// The ISO code of a sensitivity, for finding a value without reading a whole list.
    package static func isoCode(_ iso: ISOValue) -> Int64? {
        if iso.isAutomatic { return 0 }
        return iso.stopsFromISO100.flatMap(eighths).map { Int64($0 + 0x48) }
    }

    /// Aperture: eighths from f/1 at 8 to f/91 at 0x70; 0, 0xB0 (as a body in a scene mode reports it) and `0xFFFF`
    /// are automatic.
    static func aperture(_ raw: Int64) -> Value<ApertureValue> {
        if raw == 0 || raw == 0xB0 || raw == 0xFFFF { return Value(.automatic, rawValue: .integer(raw)) }
        guard (0x08...0x70).contains(raw) else { return .unknown(.integer(raw)) }
        return Value(ApertureValue(stopsFromF1: stops(eighths: Int(raw) - 0x08)), rawValue: .integer(raw))
    }

    /// Shutter speed: eighths faster than one second at 0x38, from 30 s (0x10) to 1/16000 (0xA8); 0x0C and 4 are
    /// bulb, 0 automatic.
    static func shutterSpeed(_ raw: Int64) -> Value<ShutterSpeedValue> {
        switch raw {
        case 0x0C, 0x04: return Value(.bulb, rawValue: .integer(raw))
        case 0: return Value(unrecognizedRawValue: .integer(raw), localizedDisplayValue: "Auto")
        case ..<0x10, 0xA9...: return .unknown(.integer(raw))
        default:
            let stops = stops(eighths: 0x38 - Int(raw))
            return Value(ShutterSpeedValue(stopsFromOneSecond: stops), rawValue: .integer(raw))
        }
    }

    /// Exposure compensation: signed eighths in one byte.
    static func exposureCompensation(_ raw: Int64) -> Value<ExposureCompensationValue> {
        let eighths = Int(Int8(truncatingIfNeeded: raw))
        return Value(ExposureCompensationValue(stops: stops(eighths: eighths)), rawValue: .integer(raw))
    }

    /// A value with a meaning from `meanings`, else a named one from `names`, else an unknown one.
    static func table<Meaning: CameraPropertyValue>(
        _ raw: Int64, _ meanings: [Int64: Meaning], names: [Int64: String] = [:]
    ) -> Value<Meaning> {
        if let meaning = meanings[raw] { return Value(meaning, rawValue: .integer(raw)) }
        guard let name = names[raw] else { return .unknown(.integer(raw)) }
        return Value(unrecognizedRawValue: .integer(raw), localizedDisplayValue: name)
    }

    /// Exposure modes: P, Tv, Av, M, bulb, and the automatic and scene modes.
    static func exposureMode(_ raw: Int64) -> Value<AutoExposureModeValue> {
        table(
            raw, [0: .program, 1: .shutterPriority, 2: .aperturePriority, 3: .manual, 4: .bulb, 9: .fullyAutomatic],
            names: [
                5: "A-DEP", 6: "DEP", 7: "C1", 8: "Lock", 10: "Night Portrait", 11: "Sports", 12: "Portrait",
                13: "Landscape", 14: "Close-Up", 15: "Flash Off", 16: "C2", 17: "C3", 19: "Creative Auto", 20: "Movie",
                22: "Scene Intelligent Auto",
            ])
    }

    /// White balance.
    static func whiteBalance(_ raw: Int64) -> Value<WhiteBalanceValue> {
        table(
            raw,
            [
                0: .automatic, 1: .daylight, 2: .cloudy, 3: .tungsten, 4: .fluorescent, 5: .flash, 6: .custom,
                8: .shade, 9: .colorTemperature,
            ], names: [23: "Auto (White Priority)"])
    }

    /// Drive modes, with libgphoto2's names for those without a common meaning.
    static func driveMode(_ raw: Int64) -> Value<DriveModeValue> {
        table(
            raw, [0: .single, 1: .continuous, 4: .continuousHigh, 5: .continuousLow, 0x10: .selfTimer],
            names: [
                0x02: "Video", 0x06: "Silent Single", 0x07: "Self-Timer Continuous", 0x11: "Self-Timer 2 s",
                0x12: "Super High Speed Continuous", 0x13: "Single Silent", 0x14: "Continuous Silent",
                0x15: "Silent High Speed Continuous", 0x16: "Silent Low Speed Continuous",
            ])
    }

    /// Focus modes: one shot, AI servo, AI focus and manual.
    static func focusMode(_ raw: Int64) -> Value<FocusModeValue> {
        table(raw, [0: .singleAutoFocus, 1: .continuousAutoFocus, 2: .automaticAutoFocus, 3: .manual])
    }

    /// Battery: a level in five steps, not in order (0 low, 5 a quarter, 1 half, 4 three quarters, 2 full).
    static func batteryLevel(_ raw: Int64) -> Value<BatteryLevelValue> {
        table(raw, [0: .percent(10), 5: .percent(25), 1: .percent(50), 4: .percent(75), 2: .percent(100)])
    }

    /// Metering modes as libgphoto2 names them; 1, 3, 4 and 5 have a common meaning.
    static func meteringMode(_ raw: Int64) -> Value<MeteringModeValue> {
        table(
            raw, [1: .spot, 3: .evaluative, 4: .partial, 5: .centerWeighted],
            names: [0: "Center-Weighted", 2: "Average", 6: "Spot (AF Point)", 7: "Multi-Spot"])
    }

    /// Where pictures go: 4 the computer, 2 the card; libgphoto2 takes any other listed value for the card too, but
    /// only 2 has been seen.
    static func imageDestination(_ raw: Int64) -> Value<ImageDestinationValue> {
        table(raw, [2: .camera, 4: .connectedHost])
    }

    /// Picture styles as libgphoto2 names them: the camera's own have a common meaning, the user's only names.
    static func colorTone(_ raw: Int64) -> Value<ColorToneValue> {
        table(
            raw,
            [
                0x81: .standard, 0x82: .portrait, 0x83: .landscape, 0x84: .neutral, 0x85: .faithful,
                0x86: .monochrome, 0x87: .auto, 0x88: .fineDetail,
            ],
            names: [0x21: "User Defined 1", 0x22: "User Defined 2", 0x23: "User Defined 3"])
    }

    /// Mirror lockup and the depth-of-field preview: 0 off, 1 on.
    static func onOff(_ raw: Int64) -> Value<OnOffValue> {
        table(raw, [0: .off, 1: .on])
    }

    /// Image formats in libgphoto2's condensed values and names: large JPEGs and full-size raw files have a common
    /// meaning, other sizes only their names.
    static func imageQuality(_ raw: Int64) -> Value<ImageQualityValue> {
        table(
            raw,
            [
                0x0300: .jpegFine, 0x0200: .jpegNormal, 0x0C00: .raw, 0x0C03: .rawAndJPEGFine,
                0x0C02: .rawAndJPEGNormal,
            ],
            names: [
                0x1C00: "mRAW", 0x2C00: "sRAW", 0x0B00: "cRAW", 0x1300: "Medium Fine JPEG",
                0x1200: "Medium Normal JPEG", 0x2300: "Small Fine JPEG", 0x2200: "Small Normal JPEG",
                0xD300: "Small Fine JPEG", 0xD200: "Small Normal JPEG", 0xE300: "Smaller JPEG", 0xF300: "Tiny JPEG",
                0x1C03: "mRAW + Large Fine JPEG", 0x2C03: "sRAW + Large Fine JPEG", 0x0B03: "cRAW + Large Fine JPEG",
                0x0C13: "RAW + Medium Fine JPEG", 0x0C23: "RAW + Small Fine JPEG", 0x0CD3: "RAW + Small Fine JPEG",
                0x0C12: "RAW + Medium Normal JPEG", 0x0C22: "RAW + Small Normal JPEG",
                0x0CD2: "RAW + Small Normal JPEG", 0x0CE3: "RAW + Smaller JPEG", 0x0CF3: "RAW + Tiny JPEG",
            ])
    }

    /// A lens by the name EOS LensName gives it; `nil` for the empty name of a body without a lens.
    static func lensName(_ text: String) -> Value<LensNameValue>? {
        LensNameValue(text).map { Value($0, rawValue: .string(text)) }
    }

    /// Shots available.
    static func shotsAvailable(_ raw: Int64) -> Value<ShotsAvailableValue> {
        Value(ShotsAvailableValue(Int(raw)), rawValue: .integer(raw))
    }
}
