import ViewfinderCore

/// The meanings of PTP property values: ISO 15740's codes and Nikon's additions, as typed values that keep the
/// camera's integer as their raw value.
///
/// A value Viewfinder does not know becomes a value without a common value that shows its name or code, so that it
/// can still be shown and set.
enum PTPPropertyValues {
    typealias Value<T: CameraPropertyValue> = TypedCameraPropertyValue<T>

    /// ExposureIndex: the ISO speed; `0xFFFF` is automatic.
    static func iso(_ raw: Int64, _ vendor: PTPVendor) -> Value<ISOValue> {
        if raw == 0xFFFF { return Value(.automatic, rawValue: .integer(raw)) }
        return known(ISOValue(Int(raw)), raw, "ISO")
    }

    /// ExposureTime: seconds × 10 000; Nikon writes bulb as `0xFFFFFFFF` and time as `0xFFFFFFFD`.
    static func shutterSpeed(_ raw: Int64, _ vendor: PTPVendor) -> Value<ShutterSpeedValue> {
        switch raw {
        case 0xFFFF_FFFF: return Value(.bulb, rawValue: .integer(raw))
        case 0xFFFF_FFFD: return Value(unrecognizedRawValue: .integer(raw), localizedDisplayValue: "Time")
        default: return known(ShutterSpeedValue(tenThousandthsOfASecond: raw), raw, "Shutter")
        }
    }

    /// FNumber: the f-number × 100.
    static func aperture(_ raw: Int64, _ vendor: PTPVendor) -> Value<ApertureValue> {
        known(ApertureValue(hundredthsOfFNumber: Int(raw)), raw, "Aperture")
    }

    /// ExposureBiasCompensation: EV × 1000.
    static func exposureCompensation(_ raw: Int64, _ vendor: PTPVendor) -> Value<ExposureCompensationValue> {
        Value(ExposureCompensationValue(thousandthsOfAStop: Int(clamping: raw)), rawValue: .integer(raw))
    }

    /// WhiteBalance: 1 manual, 2 automatic, 3 one-push automatic, 4 daylight, 5 fluorescent, 6 tungsten, 7 flash;
    /// Nikon adds cloudy, shade, colour temperature and preset.
    static func whiteBalance(_ raw: Int64, _ vendor: PTPVendor) -> Value<WhiteBalanceValue> {
        let standard: [Int64: WhiteBalanceValue] = [
            1: .custom, 2: .automatic, 4: .daylight, 5: .fluorescent, 6: .tungsten, 7: .flash,
        ]
        let nikon: [Int64: WhiteBalanceValue] = [
            0x8010: .cloudy, 0x8011: .shade, 0x8012: .colorTemperature, 0x8013: .custom,
        ]
        return lookup(raw, standard, vendor == .nikon ? nikon : [:], names: [3: "One-Push Auto"], "White Balance")
    }

    /// FocusMode: 1 manual, 2 automatic, 3 automatic macro; Nikon adds AF-S, AF-C, AF-A and AF-F.
    static func focusMode(_ raw: Int64, _ vendor: PTPVendor) -> Value<FocusModeValue> {
        let standard: [Int64: FocusModeValue] = [1: .manual, 2: .autoFocus, 3: .macro]
        let nikon: [Int64: FocusModeValue] = [
            0x8010: .singleAutoFocus, 0x8011: .continuousAutoFocus, 0x8012: .automaticAutoFocus,
        ]
        let names: [Int64: String] = vendor == .nikon ? [0x8013: "AF-F"] : [:]
        return lookup(raw, standard, vendor == .nikon ? nikon : [:], names: names, "Focus Mode")
    }

    /// ExposureProgramMode: 1 manual, 2 program, 3 aperture priority, 4 shutter priority, then scene programs;
    /// Nikon adds its automatic mode and scene modes.
    static func exposureProgram(_ raw: Int64, _ vendor: PTPVendor) -> Value<AutoExposureModeValue> {
        let standard: [Int64: AutoExposureModeValue] = [
            1: .manual, 2: .program, 3: .aperturePriority, 4: .shutterPriority,
        ]
        var names: [Int64: String] = [5: "Creative", 6: "Action", 7: "Portrait"]
        if vendor == .nikon {
            let scenes = [
                "Portrait", "Landscape", "Close-Up", "Sports", "Night Portrait", "Night Landscape", "Child", "Scene",
                "Effects",
            ]
            for (offset, scene) in scenes.enumerated() {
                names[0x8011 + Int64(offset)] = scene
            }
        }
        let nikon: [Int64: AutoExposureModeValue] = [0x8010: .fullyAutomatic]
        return lookup(raw, standard, vendor == .nikon ? nikon : [:], names: names, "Exposure Mode")
    }

    /// BatteryLevel: percent.
    static func batteryLevel(_ raw: Int64, _ vendor: PTPVendor) -> Value<BatteryLevelValue> {
        Value(BatteryLevelValue(clampingPercent: Int(clamping: raw)), rawValue: .integer(raw))
    }

    /// StillCaptureMode: 1 single, 2 burst, 3 time-lapse; Nikon's burst is its high rate, and it adds continuous
    /// low, self-timer, mirror-up and quiet release.
    static func driveMode(_ raw: Int64, _ vendor: PTPVendor) -> Value<DriveModeValue> {
        let standard: [Int64: DriveModeValue] = [1: .single, 2: .continuous, 3: .timeLapse]
        let nikon: [Int64: DriveModeValue] = [2: .continuousHigh, 0x8010: .continuousLow, 0x8011: .selfTimer]
        let names: [Int64: String] = vendor == .nikon ? [0x8012: "Mirror Up", 0x8016: "Quiet Release"] : [:]
        return lookup(raw, standard, vendor == .nikon ? nikon : [:], names: names, "Drive Mode")
    }

    /// The value for `meaning`, or an unrecognised value named after the property and the raw code.
    private static func known<T>(_ meaning: T?, _ raw: Int64, _ property: String) -> Value<T> {
        guard let meaning else { return unrecognized(raw, property) }
        return Value(meaning, rawValue: .integer(raw))
    }

    /// Looks a raw value up among the vendor's meanings, then the standard ones, then names for values without a
    /// meaning.
    private static func lookup<T>(
        _ raw: Int64, _ standard: [Int64: T], _ vendor: [Int64: T], names: [Int64: String], _ property: String
    ) -> Value<T> {
        if let meaning = vendor[raw] ?? standard[raw] {
            return Value(meaning, rawValue: .integer(raw))
        }
        if let name = names[raw] {
            return Value(unrecognizedRawValue: .integer(raw), localizedDisplayValue: name)
        }
        return unrecognized(raw, property)
    }

    /// A value Viewfinder does not know, shown as the property's name and the code, such as "Focus Mode 0x8014".
    private static func unrecognized<T>(_ raw: Int64, _ property: String) -> Value<T> {
        let hex = String(raw, radix: 16, uppercase: true)
        return Value(
            unrecognizedRawValue: .integer(raw),
            localizedDisplayValue: "\(property) 0x\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)")
    }
}
