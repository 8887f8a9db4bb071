import ViewfinderCore

/// A Lumix's setting values, as `getsetting`, `setsetting` and the menus write them, mapped to the typed values.
///
/// Apertures and shutter speeds are APEX values times 256 written as a fraction (`1366/256` is Av 5⅓, f/6.3;
/// `2560/256` is Tv 10, 1/1000); exposure compensation is a fraction of stops (`-2/3`); the rest are words. A value
/// outside these tables is ``TypedCameraPropertyValue/unknown(_:)``: shown with its text, never offered to set.
package enum LumixPropertyValues {
    /// An ISO: `auto`, `i_iso` (the camera's intelligent automatic ISO) or a number.
    package static func iso(_ raw: String) -> TypedCameraPropertyValue<ISOValue> {
        switch raw {
        case "auto": return TypedCameraPropertyValue(.automatic, rawValue: .string(raw))
        case "i_iso":
            return TypedCameraPropertyValue(.automatic, rawValue: .string(raw), localizedDisplayValue: "i.ISO")
        default:
            guard let number = Int(raw), let iso = ISOValue(number) else { return .unknown(.string(raw)) }
            return TypedCameraPropertyValue(iso, rawValue: .string(raw))
        }
    }

    /// An aperture from `focal`'s Av×256; `32767/256`, which a body without a lens reports, is unknown.
    package static func aperture(_ raw: String) -> TypedCameraPropertyValue<ApertureValue> {
        guard let sixths = apexSixths(raw), (0...(16 * 6)).contains(sixths) else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(
            ApertureValue(stopsFromF1: ExposureStops(sixths: sixths)), rawValue: .string(raw))
    }

    /// A shutter speed from `shtrspeed`'s Tv×256, positive for speeds shorter than a second.
    package static func shutterSpeed(_ raw: String) -> TypedCameraPropertyValue<ShutterSpeedValue> {
        guard let sixths = apexSixths(raw), (-(15 * 6)...(15 * 6)).contains(sixths) else {
            return .unknown(.string(raw))
        }
        return TypedCameraPropertyValue(
            ShutterSpeedValue(stopsFromOneSecond: ExposureStops(sixths: -sixths)), rawValue: .string(raw))
    }

    /// The text of an APEX value in sixths of a stop, the way the camera writes it: `N/256`, rounded up as Panasonic
    /// rounds (f/6.3, Av 5⅓, is `1366/256`; 1/1.3 s, Tv ⅓, is `86/256`; 1.3 s is `-85/256`).
    package static func apexText(sixths: Int) -> String {
        let scaled = sixths * 256
        return "\(scaled >= 0 ? (scaled + 5) / 6 : scaled / 6)/256"
    }

    /// An exposure compensation in stops: `0`, `1/3`, `-14/3`, `2`.
    package static func exposureCompensation(_ raw: String) -> TypedCameraPropertyValue<ExposureCompensationValue> {
        guard let sixths = fractionSixths(raw), abs(sixths) <= 10 * 6 else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(
            ExposureCompensationValue(stops: ExposureStops(sixths: sixths)), rawValue: .string(raw))
    }

    /// A white balance word.
    package static func whiteBalance(_ raw: String) -> TypedCameraPropertyValue<WhiteBalanceValue> {
        let table: [String: (WhiteBalanceValue, String?)] = [
            "auto": (.automatic, nil), "daylight": (.daylight, nil), "cloudy": (.cloudy, nil), "shade": (.shade, nil),
            "halogen": (.tungsten, "Incandescent"), "incandescent": (.tungsten, nil), "flash": (.flash, nil),
            "fluorescent": (.fluorescent, nil), "color_temp": (.colorTemperature, nil),
            "white_set1": (.custom, "White Set 1"), "white_set2": (.custom, "White Set 2"),
            "white_set3": (.custom, "White Set 3"), "white_set4": (.custom, "White Set 4"),
        ]
        guard let (value, name) = table[raw] else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(value, rawValue: .string(raw), localizedDisplayValue: name)
    }

    /// A focus mode word.
    package static func focusMode(_ raw: String) -> TypedCameraPropertyValue<FocusModeValue> {
        let table: [String: (FocusModeValue, String?)] = [
            "af": (.autoFocus, nil), "afs": (.singleAutoFocus, nil), "aff": (.automaticAutoFocus, nil),
            "afc": (.continuousAutoFocus, nil), "mf": (.manual, nil), "afmacro": (.macro, "AF Macro"),
            "zoommacro": (.macro, "Zoom Macro"),
        ]
        guard let (value, name) = table[raw] else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(value, rawValue: .string(raw), localizedDisplayValue: name)
    }

    /// A drive mode word; the camera's own modes (4K Photo, Post Focus) keep their names without a common meaning.
    package static func driveMode(_ raw: String) -> TypedCameraPropertyValue<DriveModeValue> {
        switch raw {
        case "normal": return TypedCameraPropertyValue(.single, rawValue: .string(raw))
        case "burst": return TypedCameraPropertyValue(.continuous, rawValue: .string(raw))
        case "selftimer": return TypedCameraPropertyValue(.selfTimer, rawValue: .string(raw))
        case "4k_photo":
            return TypedCameraPropertyValue(unrecognizedRawValue: .string(raw), localizedDisplayValue: "4K Photo")
        case "focusselect":
            return TypedCameraPropertyValue(unrecognizedRawValue: .string(raw), localizedDisplayValue: "Post Focus")
        default: return .unknown(.string(raw))
        }
    }

    /// The battery from `getstate`'s `batt`, bars of a whole such as `3/3`; `nil` for no battery (`-1/0`).
    package static func batteryLevel(_ raw: String) -> TypedCameraPropertyValue<BatteryLevelValue>? {
        let parts = raw.split(separator: "/")
        guard parts.count == 2, let bars = Int(parts[0]), let whole = Int(parts[1]) else {
            return .unknown(.string(raw))
        }
        guard whole > 0, bars >= 0 else { return nil }
        return TypedCameraPropertyValue(
            BatteryLevelValue(clampingPercent: (min(bars, whole) * 100 + whole / 2) / whole), rawValue: .string(raw))
    }

    /// `N/256` in sixths of a stop, rounded to the nearest sixth.
    package static func apexSixths(_ raw: String) -> Int? {
        let parts = raw.split(separator: "/")
        guard parts.count == 2, parts[1] == "256", let numerator = Int(parts[0]), abs(numerator) < 1 << 20 else {
            return nil
        }
        let scaled = numerator * 6
        return (scaled + (scaled >= 0 ? 128 : -128)) / 256
    }

    /// `N` or `N/3` (or `N/2`) in sixths of a stop.
    private static func fractionSixths(_ raw: String) -> Int? {
        let parts = raw.split(separator: "/")
        guard let numerator = parts.first.flatMap({ Int($0) }), abs(numerator) < 1000 else { return nil }
        switch parts.count {
        case 1: return numerator * 6
        case 2 where parts[1] == "3": return numerator * 2
        case 2 where parts[1] == "2": return numerator * 3
        default: return nil
        }
    }
}
