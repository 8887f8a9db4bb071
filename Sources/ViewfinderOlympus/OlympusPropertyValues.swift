import ViewfinderCore

/// An Olympus or OM System camera's property values, as `desclist` and `get_camprop` write them, mapped to the typed
/// values.
///
/// Apertures are f-numbers (`5.6`), shutter speeds the camera's own marks (`250` for 1/250 s, `2"` for two seconds,
/// `1.3"`), exposure compensation decimal stops (`-0.3`, `+0.7`), white balance numeric codes. A value outside these
/// forms and tables is ``TypedCameraPropertyValue/unknown(_:)``: shown with its text, never offered to set.
package enum OlympusPropertyValues {
    /// The shooting mode (`takemode`): iAuto, P, A, S and M; the camera's others (ART, movie, scene modes) keep their
    /// names without a common meaning.
    package static func exposureMode(_ raw: String) -> TypedCameraPropertyValue<AutoExposureModeValue> {
        let table: [String: AutoExposureModeValue] = [
            "iAuto": .fullyAutomatic, "P": .program, "A": .aperturePriority, "S": .shutterPriority, "M": .manual,
            "B": .bulb,
        ]
        if let value = table[raw] {
            return TypedCameraPropertyValue(value, rawValue: .string(raw), localizedDisplayValue: raw)
        }
        guard !raw.isEmpty, raw.utf8.count <= 32 else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(unrecognizedRawValue: .string(raw), localizedDisplayValue: raw)
    }

    /// An ISO: `Auto` or a number.
    package static func iso(_ raw: String) -> TypedCameraPropertyValue<ISOValue> {
        if raw.lowercased() == "auto" { return TypedCameraPropertyValue(.automatic, rawValue: .string(raw)) }
        guard let number = Int(raw), let iso = ISOValue(number) else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(iso, rawValue: .string(raw))
    }

    /// An aperture from `focalvalue`, an f-number such as `5.6` or `22`.
    package static func aperture(_ raw: String) -> TypedCameraPropertyValue<ApertureValue> {
        guard let number = Double(raw), (0.5...128).contains(number), let aperture = ApertureValue(fNumber: number)
        else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(aperture, rawValue: .string(raw))
    }

    /// A shutter speed from `shutspeedvalue`: `250` is 1/250 s, `2"` two seconds, `1.3"` 1.3 seconds; `BULB`, `LIVE
    /// TIME` and `LIVE COMP` are bulb.
    package static func shutterSpeed(_ raw: String) -> TypedCameraPropertyValue<ShutterSpeedValue> {
        if ["bulb", "livetime", "live time", "livecomp", "live comp"].contains(raw.lowercased()) {
            return TypedCameraPropertyValue(.bulb, rawValue: .string(raw), localizedDisplayValue: raw)
        }
        let seconds: Double
        if raw.hasSuffix("\"") {
            guard let whole = Double(raw.dropLast()), whole > 0 else { return .unknown(.string(raw)) }
            seconds = whole
        } else {
            guard let denominator = Double(raw), denominator > 0 else { return .unknown(.string(raw)) }
            seconds = 1 / denominator
        }
        guard (1.0 / 64000...3600).contains(seconds), let speed = ShutterSpeedValue(seconds: seconds) else {
            return .unknown(.string(raw))
        }
        return TypedCameraPropertyValue(speed, rawValue: .string(raw))
    }

    /// An exposure compensation in decimal stops: `0.0`, `-0.3` (a third), `+0.7` (two thirds), `+0.5` (a half).
    package static func exposureCompensation(_ raw: String) -> TypedCameraPropertyValue<ExposureCompensationValue> {
        guard let stops = Double(raw), abs(stops) <= 10 else { return .unknown(.string(raw)) }
        let thirds = (stops * 3).rounded()
        // A decimal that is no third (0.5, 1.5) is a half stop.
        let sixths = abs(stops * 3 - thirds) < 0.2 ? Int(thirds) * 2 : Int((stops * 2).rounded()) * 3
        return TypedCameraPropertyValue(
            ExposureCompensationValue(stops: ExposureStops(sixths: sixths)), rawValue: .string(raw))
    }

    /// A white balance code (`wbvalue`).
    package static func whiteBalance(_ raw: String) -> TypedCameraPropertyValue<WhiteBalanceValue> {
        let table: [String: (WhiteBalanceValue, String?)] = [
            "0": (.automatic, nil), "18": (.daylight, nil), "16": (.shade, nil), "17": (.cloudy, nil),
            "20": (.tungsten, "Incandescent"), "35": (.fluorescent, nil), "64": (.custom, "Underwater"),
            "23": (.flash, nil), "256": (.custom, "One-Touch 1"), "257": (.custom, "One-Touch 2"),
            "258": (.custom, "One-Touch 3"), "259": (.custom, "One-Touch 4"), "512": (.colorTemperature, "Custom"),
        ]
        guard let (value, name) = table[raw] else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(value, rawValue: .string(raw), localizedDisplayValue: name)
    }

    /// A drive mode (`drivemode`): single, sequential high and low, the self-timer.
    package static func driveMode(_ raw: String) -> TypedCameraPropertyValue<DriveModeValue> {
        let table: [String: DriveModeValue] = [
            "normal": .single, "continuous-H": .continuousHigh, "continuous-L": .continuousLow,
            "selftimer": .selfTimer,
        ]
        guard let value = table[raw] else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(value, rawValue: .string(raw))
    }

    /// A focus mode (`focusmode`, where a body lists it): single, continuous and manual focus.
    package static func focusMode(_ raw: String) -> TypedCameraPropertyValue<FocusModeValue> {
        let table: [String: FocusModeValue] = [
            "S-AF": .singleAutoFocus, "C-AF": .continuousAutoFocus, "MF": .manual, "S-AF+MF": .singleAutoFocus,
        ]
        guard let value = table[raw] else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(value, rawValue: .string(raw), localizedDisplayValue: raw)
    }
}
