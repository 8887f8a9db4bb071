import ViewfinderCore

/// The meanings a vendor adds to a standard property's values, for ``StandardPropertyValues``.
struct VendorValues<Meaning>: Sendable where Meaning: Sendable {
    /// Values with a meaning Viewfinder knows, by the camera's integer.
    var meanings: [Int64: Meaning]
    /// Names for values without such a meaning, shown as they are.
    var names: [Int64: String]

    /// Creates the additions.
    init(meanings: [Int64: Meaning] = [:], names: [Int64: String] = [:]) {
        self.meanings = meanings
        self.names = names
    }

    /// No additions: the standard values only.
    static var none: VendorValues { VendorValues() }
}

/// The meanings of standard PTP property values, ISO 15740's codes, as typed values that keep the camera's integer
/// as their raw value; a dialect passes its vendor's additions.
///
/// A value with a name but no common meaning (a vendor's mode) can be shown and set; a code Viewfinder knows neither
/// a meaning nor a name for is ``TypedCameraPropertyValue/unknown(_:)``: shown with its code and never offered as
/// settable.
enum StandardPropertyValues {
    typealias Value<T: CameraPropertyValue> = TypedCameraPropertyValue<T>

    /// ExposureIndex: the ISO speed; `0xFFFF` is automatic.
    static func iso(_ raw: Int64) -> Value<ISOValue> {
        if raw == 0xFFFF { return Value(.automatic, rawValue: .integer(raw)) }
        return known(ISOValue(Int(raw)), raw)
    }

    /// ExposureTime: seconds × 10 000; `0xFFFFFFFF` is bulb; a vendor may name other codes.
    static func shutterSpeed(_ raw: Int64) -> Value<ShutterSpeedValue> {
        shutterSpeed(raw, names: [:])
    }

    /// ExposureTime with names a vendor gives to codes outside the standard's range.
    static func shutterSpeed(_ raw: Int64, names: [Int64: String]) -> Value<ShutterSpeedValue> {
        if raw == 0xFFFF_FFFF { return Value(.bulb, rawValue: .integer(raw)) }
        if let name = names[raw] { return Value(unrecognizedRawValue: .integer(raw), localizedDisplayValue: name) }
        return known(ShutterSpeedValue(tenThousandthsOfASecond: raw), raw)
    }

    /// FNumber: the f-number × 100.
    static func aperture(_ raw: Int64) -> Value<ApertureValue> {
        known(ApertureValue(hundredthsOfFNumber: Int(raw)), raw)
    }

    /// ExposureBiasCompensation: EV × 1000.
    static func exposureCompensation(_ raw: Int64) -> Value<ExposureCompensationValue> {
        Value(ExposureCompensationValue(thousandthsOfAStop: Int(clamping: raw)), rawValue: .integer(raw))
    }

    /// WhiteBalance: 1 manual, 2 automatic, 3 one-push automatic, 4 daylight, 5 fluorescent, 6 tungsten, 7 flash.
    static func whiteBalance(_ raw: Int64, vendor: VendorValues<WhiteBalanceValue> = .none)
        -> Value<WhiteBalanceValue>
    {
        let standard: [Int64: WhiteBalanceValue] = [
            1: .custom, 2: .automatic, 4: .daylight, 5: .fluorescent, 6: .tungsten, 7: .flash,
        ]
        return lookup(raw, standard, vendor, standardNames: [3: "One-Push Auto"])
    }

    /// FocusMode: 1 manual, 2 automatic, 3 automatic macro.
    static func focusMode(_ raw: Int64, vendor: VendorValues<FocusModeValue> = .none) -> Value<FocusModeValue> {
        lookup(raw, [1: .manual, 2: .autoFocus, 3: .macro], vendor, standardNames: [:])
    }

    /// ExposureProgramMode: 1 manual, 2 program, 3 aperture priority, 4 shutter priority, then scene programs.
    static func exposureProgram(_ raw: Int64, vendor: VendorValues<AutoExposureModeValue> = .none)
        -> Value<AutoExposureModeValue>
    {
        let standard: [Int64: AutoExposureModeValue] = [
            1: .manual, 2: .program, 3: .aperturePriority, 4: .shutterPriority,
        ]
        return lookup(
            raw, standard, vendor, standardNames: [5: "Creative", 6: "Action", 7: "Portrait"])
    }

    /// BatteryLevel: percent.
    static func batteryLevel(_ raw: Int64) -> Value<BatteryLevelValue> {
        Value(BatteryLevelValue(clampingPercent: Int(clamping: raw)), rawValue: .integer(raw))
    }

    /// StillCaptureMode: 1 single, 2 burst, 3 time-lapse.
    static func driveMode(_ raw: Int64, vendor: VendorValues<DriveModeValue> = .none) -> Value<DriveModeValue> {
        lookup(raw, [1: .single, 2: .continuous, 3: .timeLapse], vendor, standardNames: [:])
    }

    /// ExposureMeteringMode: 1 average, 2 centre-weighted, 3 multi-spot, 4 centre spot.
    static func meteringMode(_ raw: Int64) -> Value<MeteringModeValue> {
        let standard: [Int64: MeteringModeValue] = [1: .average, 2: .centerWeighted, 3: .multiSpot, 4: .spot]
        return lookup(raw, standard, .none, standardNames: [:])
    }

    /// FocalLength: millimetres × 100.
    static func focalLength(_ raw: Int64) -> Value<FocalLengthValue> {
        known(FocalLengthValue(hundredthsOfAMillimetre: Int(clamping: raw)), raw)
    }

    /// The value for `meaning`, or an unknown value with the raw code.
    static func known<T>(_ meaning: T?, _ raw: Int64) -> Value<T> {
        guard let meaning else { return .unknown(.integer(raw)) }
        return Value(meaning, rawValue: .integer(raw))
    }

    /// A property whose values only the vendor defines, such as CompressionSetting: the vendor's meanings and names.
    static func vendorDefined<T>(_ raw: Int64, _ vendor: VendorValues<T>) -> Value<T> {
        lookup(raw, [:], vendor, standardNames: [:])
    }

    /// Looks a raw value up among the vendor's meanings, then the standard ones, then names for values without a
    /// meaning.
    private static func lookup<T>(
        _ raw: Int64, _ standard: [Int64: T], _ vendor: VendorValues<T>, standardNames: [Int64: String]
    ) -> Value<T> {
        if let meaning = vendor.meanings[raw] ?? standard[raw] {
            return Value(meaning, rawValue: .integer(raw))
        }
        if let name = vendor.names[raw] ?? standardNames[raw] {
            return Value(unrecognizedRawValue: .integer(raw), localizedDisplayValue: name)
        }
        return .unknown(.integer(raw))
    }
}
