import ViewfinderCore

/// A Fujifilm film simulation, such as PROVIA/Standard or Classic Chrome: the colour and tone the camera gives its
/// JPEGs.
public struct FujiFilmSimulationValue: CameraPropertyValue {
    /// The film simulation's name as the camera shows it.
    public let name: String

    /// Creates a value.
    public init(name: String) {
        self.name = name
    }

    /// The name.
    public var localizedDisplayValue: String { name }
}

extension CameraPropertyIdentifier where Value == FujiFilmSimulationValue {
    /// A Fujifilm camera's film simulation.
    public static var filmSimulation: Self { Self(name: "filmSimulation", localizedDisplayName: "Film Simulation") }
}

/// Fujifilm's value tables (libgphoto2's config.c and a real X-T4's answers), and the bindings that read them.
///
/// A code none of the tables knows is shown as unknown, with its number, and never offered as settable.
package enum FujiPropertyValues {
    package typealias Value<T: CameraPropertyValue> = TypedCameraPropertyValue<T>

    /// The properties Fujifilm bodies describe with GetDevicePropDesc.
    static let bindings: [PTPPropertyBinding] = [
        .binding(.iso, .exposureIndex, decode: iso),
        .binding(.shutterSpeed, .exposureTime, decode: shutterSpeed),
        .binding(.aperture, .fNumber, decode: StandardPropertyValues.aperture),
        .binding(.exposureCompensation, .exposureBiasCompensation, decode: StandardPropertyValues.exposureCompensation),
        .binding(.whiteBalance, .whiteBalance) { StandardPropertyValues.whiteBalance($0, vendor: whiteBalance) },
        .binding(.focusMode, .focusMode) { StandardPropertyValues.focusMode($0, vendor: focusMode) },
        .binding(.autoExposureMode, .exposureProgramMode) { StandardPropertyValues.exposureProgram($0) },
        .binding(.driveMode, .fujiReleaseMode) { StandardPropertyValues.driveMode($0, vendor: driveMode) },
        .binding(.batteryLevel, .batteryLevel, decode: StandardPropertyValues.batteryLevel),
        .binding(.filmSimulation, .fujiFilmSimulation, decode: filmSimulation),
    ]

    /// ExposureIndex as a signed 32-bit ISO: the ISO itself, or -1, -2 and -3 for the three automatic settings.
    package static func iso(_ raw: Int64) -> Value<ISOValue> {
        if (-3)...(-1) ~= raw {
            return Value(.automatic, rawValue: .integer(raw), localizedDisplayValue: "Auto \(-raw)")
        }
        return StandardPropertyValues.known(raw > 0 ? ISOValue(Int(raw)) : nil, raw)
    }

    /// The microseconds of minute-long exposures, written as 64,000,000 and 30 more for each step: 2, 4, 8, 15, 30
    /// and 60 minutes.
    static let minuteExposures: [Int64: Int] = [
        64_000_030: 2, 64_000_060: 4, 64_000_090: 8, 64_000_120: 15, 64_000_150: 30, 64_000_180: 60,
    ]

    /// ExposureTime in microseconds of the exact power-of-two time (1/60 is 15,625, 1/50 is 19,686); `0xFFFFFFFF` is
    /// bulb; the minute-long exposures are written as ``minuteExposures``.
    package static func shutterSpeed(_ raw: Int64) -> Value<ShutterSpeedValue> {
        if raw == 0xFFFF_FFFF { return Value(.bulb, rawValue: .integer(raw)) }
        if let minutes = minuteExposures[raw] {
            return StandardPropertyValues.known(ShutterSpeedValue(seconds: Double(minutes * 60)), raw)
        }
        return StandardPropertyValues.known(raw > 0 ? ShutterSpeedValue(seconds: Double(raw) / 1e6) : nil, raw)
    }

    /// Shade, fluorescent lamps 1 to 5, colour temperature and custom 1 to 5.
    static let whiteBalance: VendorValues<WhiteBalanceValue> = {
        var meanings: [Int64: WhiteBalanceValue] = [0x8006: .shade, 0x8007: .colorTemperature]
        for lamp in 0..<5 { meanings[0x8001 + Int64(lamp)] = .fluorescent }
        for preset in 0..<5 { meanings[0x8008 + Int64(preset)] = .custom }
        return VendorValues(meanings: meanings)
    }()

    /// Single AF (0x8001) and continuous AF (0x8002); 1 is manual, as the standard has it.
    static let focusMode = VendorValues<FocusModeValue>(meanings: [
        0x8001: .singleAutoFocus, 0x8002: .continuousAutoFocus,
    ])

    /// ReleaseMode: single, continuous low and high, self-timer, mirror up.
    static let driveMode = VendorValues<DriveModeValue>(
        meanings: [1: .single, 2: .continuousLow, 3: .continuousHigh, 4: .selfTimer], names: [5: "Mirror Up"])

    /// The film simulations, by the camera's code.
    static let filmSimulations: [Int64: String] = [
        1: "PROVIA/Standard", 2: "Velvia/Vivid", 3: "ASTIA/Soft", 4: "PRO Neg. Hi", 5: "PRO Neg. Std",
        6: "Monochrome", 7: "Monochrome+Ye Filter", 8: "Monochrome+R Filter", 9: "Monochrome+G Filter", 10: "Sepia",
        11: "Classic Chrome", 12: "ACROS", 13: "ACROS+Ye Filter", 14: "ACROS+R Filter", 15: "ACROS+G Filter",
        16: "ETERNA/Cinema", 17: "Classic Neg.", 18: "ETERNA Bleach Bypass",
    ]

    /// FilmSimulation: a known code's name, or unknown.
    package static func filmSimulation(_ raw: Int64) -> Value<FujiFilmSimulationValue> {
        StandardPropertyValues.known(filmSimulations[raw].map(FujiFilmSimulationValue.init(name:)), raw)
    }

    /// The battery's charge from BatteryInfo2's text, its first comma-separated number, when it is a percentage.
    package static func batteryPercent(_ text: String) -> Int? {
        guard let first = text.split(separator: ",").first, let percent = Int(first), (0...100) ~= percent else {
            return nil
        }
        return percent
    }

    /// The property descriptions in an answer to Fuji GetDeviceInfo (0x902B): a 32-bit count, then that many entries,
    /// each a 32-bit size (its own four bytes included) and a DevicePropDesc dataset in the rest of the entry.
    ///
    /// An entry whose description does not decode is skipped, as its size says where the next begins. libgphoto2
    /// reads each description where the last ended and takes the size only as a bound, so a camera whose sizes leave
    /// out their own four bytes works with it: an entry that does not decode so is read with its size counted from
    /// after the field, and taken when its description fills exactly that, before it is skipped.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for an answer shorter than 8 bytes (libgphoto2 refuses those
    ///   too), a count of more entries than the bytes could hold, or an entry whose size is less than its size field
    ///   or runs past the answer's end.
    package static func propertyDescriptions(
        inDeviceInfo data: [UInt8]
    ) throws(ViewfinderError) -> [PTPDevicePropertyDescription] {
        var reader = PTPDataReader(data, reading: "Fujifilm GetDeviceInfo (0x902B)")
        guard data.count >= 8 else {
            throw reader.malformed("the answer has \(data.count) bytes, fewer than a count and one entry's size")
        }
        let count = Int(try reader.read(UInt32.self))
        guard count <= reader.remainingCount / 4 else {
            throw reader.malformed("the answer claims \(count) descriptions, but \(reader.remainingCount) bytes follow")
        }
        var descriptions: [PTPDevicePropertyDescription] = []
        descriptions.reserveCapacity(count)
        for index in 0..<count {
            let size = Int(try reader.read(UInt32.self))
            guard size >= 4, size - 4 <= reader.remainingCount else {
                throw reader.malformed(
                    "entry \(index + 1) of \(count) claims \(size) bytes, but \(reader.remainingCount + 4) are left")
            }
            let entry = try reader.readBytes(size - 4)
            if let description = try? PTPDevicePropertyDescription(decoding: entry) {
                descriptions.append(description)
            } else if reader.remainingCount >= 4,
                let description = try? PTPDevicePropertyDescription(
                    decoding: entry + data[reader.offset..<reader.offset + 4]),
                (try? description.encoded().count) == size
            {
                // The size left out its own field, and the description fills it exactly: the entry ends four bytes on.
                descriptions.append(description)
                _ = try reader.readBytes(4)
            }
        }
        return descriptions
    }

    /// The properties a CurrentState (0xD212) value lists as changed: a 16-bit count, then each property's 16-bit
    /// code and 32-bit value, as libgphoto2 reads it; the values are left out, as the client reads each property
    /// again.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when the count claims more properties than the bytes hold.
    package static func changedProperties(
        inCurrentState data: [UInt8]
    ) throws(ViewfinderError) -> [PTPDevicePropertyCode] {
        try PTPEventPoller.records(in: data, of: "Fujifilm CurrentState").map {
            PTPDevicePropertyCode(rawValue: $0.code)
        }
    }
}
