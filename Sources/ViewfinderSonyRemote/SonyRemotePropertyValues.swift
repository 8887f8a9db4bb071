import ViewfinderCore

/// A Sony Camera Remote API body's setting values, as its calls and events write them, mapped to the typed values.
///
/// ISO is `AUTO` or a number, apertures f-numbers (`5.6`), shutter speeds `1/250` or seconds with a `"` (`2"`,
/// `1.3"`), exposure compensation an index of steps of a third or a half stop, white balance the mode's name
/// (`Daylight`). A value outside these forms and tables is ``TypedCameraPropertyValue/unknown(_:)``: shown with its
/// text, never offered to set.
package enum SonyRemotePropertyValues {
    /// An ISO: `AUTO` or a number such as `400`.
    package static func iso(_ raw: String) -> TypedCameraPropertyValue<ISOValue> {
        if raw.uppercased() == "AUTO" {
            return TypedCameraPropertyValue(.automatic, rawValue: .string(raw), localizedDisplayValue: "Auto")
        }
        guard let number = Int(raw), let iso = ISOValue(number) else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(iso, rawValue: .string(raw))
    }

    /// An aperture, an f-number such as `5.6` or `22`.
    package static func aperture(_ raw: String) -> TypedCameraPropertyValue<ApertureValue> {
        guard let number = Double(raw), (0.5...128).contains(number), let aperture = ApertureValue(fNumber: number)
        else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(aperture, rawValue: .string(raw))
    }

    /// A shutter speed: `1/250` is 1/250 s, `2"` two seconds, `1.3"` 1.3 seconds; `BULB` is bulb.
    package static func shutterSpeed(_ raw: String) -> TypedCameraPropertyValue<ShutterSpeedValue> {
        if raw.uppercased() == "BULB" {
            return TypedCameraPropertyValue(.bulb, rawValue: .string(raw), localizedDisplayValue: "Bulb")
        }
        let seconds: Double
        if raw.hasSuffix("\"") {
            guard let whole = Double(raw.dropLast()), whole > 0 else { return .unknown(.string(raw)) }
            seconds = whole
        } else if raw.hasPrefix("1/") {
            guard let denominator = Double(raw.dropFirst(2)), denominator > 0 else { return .unknown(.string(raw)) }
            seconds = 1 / denominator
        } else {
            return .unknown(.string(raw))
        }
        guard (1.0 / 64000...3600).contains(seconds), let speed = ShutterSpeedValue(seconds: seconds) else {
            return .unknown(.string(raw))
        }
        return TypedCameraPropertyValue(speed, rawValue: .string(raw))
    }

    /// An exposure compensation: `index` steps of a third of a stop (`stepIndex` 1) or a half (`stepIndex` 2).
    package static func exposureCompensation(
        _ index: Int, stepIndex: Int
    ) -> TypedCameraPropertyValue<ExposureCompensationValue> {
        let raw = CameraPropertyRawValue.integer(Int64(index))
        guard abs(index) <= 60 else { return .unknown(raw) }
        switch stepIndex {
        case 1:
            return TypedCameraPropertyValue(
                ExposureCompensationValue(stops: ExposureStops(sixths: index * 2)), rawValue: raw)
        case 2:
            return TypedCameraPropertyValue(
                ExposureCompensationValue(stops: ExposureStops(sixths: index * 3)), rawValue: raw)
        default: return .unknown(raw)
        }
    }

    /// A white balance mode by the name the camera gives it.
    package static func whiteBalance(_ raw: String) -> TypedCameraPropertyValue<WhiteBalanceValue> {
        let table: [String: WhiteBalanceValue] = [
            "Auto WB": .automatic, "Daylight": .daylight, "Shade": .shade, "Cloudy": .cloudy,
            "Incandescent": .tungsten, "Flash": .flash, "Color Temperature": .colorTemperature,
            "Custom 1": .custom, "Custom 2": .custom, "Custom 3": .custom, "Custom": .custom,
            "Underwater Auto": .custom,
        ]
        if let value = table[raw] {
            return TypedCameraPropertyValue(value, rawValue: .string(raw), localizedDisplayValue: raw)
        }
        if raw.hasPrefix("Fluorescent"), raw.utf8.count <= 64 {
            return TypedCameraPropertyValue(.fluorescent, rawValue: .string(raw), localizedDisplayValue: raw)
        }
        return .unknown(.string(raw))
    }

    /// An exposure mode by the name the camera gives it, such as `Program Auto` or `Aperture`.
    package static func exposureMode(_ raw: String) -> TypedCameraPropertyValue<AutoExposureModeValue> {
        let table: [String: AutoExposureModeValue] = [
            "Intelligent Auto": .fullyAutomatic, "Superior Auto": .fullyAutomatic, "Program Auto": .program,
            "Aperture": .aperturePriority, "Shutter": .shutterPriority, "Manual": .manual,
        ]
        guard let value = table[raw] else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(value, rawValue: .string(raw), localizedDisplayValue: raw)
    }

    /// A focus mode by the name the camera gives it: `AF-S`, `AF-C`, `DMF` (single autofocus that the focus ring
    /// then refines) or `MF`.
    package static func focusMode(_ raw: String) -> TypedCameraPropertyValue<FocusModeValue> {
        let table: [String: FocusModeValue] = [
            "AF-S": .singleAutoFocus, "AF-C": .continuousAutoFocus, "DMF": .singleAutoFocus, "MF": .manual,
        ]
        guard let value = table[raw] else { return .unknown(.string(raw)) }
        return TypedCameraPropertyValue(value, rawValue: .string(raw), localizedDisplayValue: raw)
    }
}
