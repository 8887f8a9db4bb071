import ViewfinderCore

extension SonyProperties {
    /// A binding whose values `decode` makes from the camera's integers.
    ///
    /// - Parameters:
    ///   - isNotched: Whether protocol-200 bodies move it by notches (``SonyPropertyValues/notchPlace(of:_:among:)``).
    ///   - absoluteTwin: The property a protocol-200 body that lists it takes this one's values in directly.
    ///   - rangeValues: The values to offer for a range from the first integer to the second, where the range's
    ///     every integer is not a value (f-numbers, shutter speeds); by default every step of the range.
    ///   - settable: Whether the property can be set at all.
    static func binding<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, _ code: PTPDevicePropertyCode,
        isNotched: Bool = false, absoluteTwin: PTPDevicePropertyCode? = nil,
        rangeValues: (@Sendable (Int64, Int64) -> [Int64])? = nil, settable: Bool = true,
        decode: @escaping @Sendable (Int64) -> TypedCameraPropertyValue<Value>
    ) -> Binding {
        Binding(
            code: code, name: identifier.name, displayName: identifier.localizedDisplayName, isNotched: isNotched,
            absoluteTwin: absoluteTwin, describe: { decode($0).localizedDisplayValue },
            apply: { record, kind, connection in
                guard let record else {
                    connection.update(identifier, currentValue: nil, validSettableValues: [])
                    return
                }
                let values: CameraPropertySettableValues<Value>
                switch settable ? kind : .none {
                case .none:
                    values = []
                case .stepping:
                    values = .stepping
                case .listed:
                    switch record.form {
                    case .enumeration(let list):
                        values = CameraPropertySettableValues(list.compactMap { $0.integerValue.map(decode) })
                    case .range(let minimum, let maximum, _) where rangeValues != nil:
                        guard let low = minimum.integerValue, let high = maximum.integerValue, let rangeValues else {
                            values = []
                            break
                        }
                        values = CameraPropertySettableValues(rangeValues(low, high).map(decode))
                    case .range:
                        let description = PTPDevicePropertyDescription(
                            code: record.code, dataType: record.dataType, isSettable: true,
                            factoryDefaultValue: record.defaultValue, currentValue: record.currentValue,
                            form: record.form)
                        values = PTPPropertyBinding.settableValues(of: description, decode)
                    case .none:
                        values = []
                    }
                }
                connection.update(
                    identifier, currentValue: record.currentValue.integerValue.map(decode), validSettableValues: values)
            })
    }

    /// The properties Viewfinder types, with Sony's value tables.
    static let all: [Binding] = [
        binding(
            .iso, .sonyISO, isNotched: true, absoluteTwin: .sonyISO2, decode: SonyPropertyValues.iso),
        binding(
            .shutterSpeed, .sonyShutterSpeed, isNotched: true, absoluteTwin: .sonyShutterSpeed2,
            rangeValues: nominalShutterCodes,
            decode: SonyPropertyValues.shutterSpeed),
        binding(
            .aperture, .fNumber, isNotched: true, rangeValues: nominalApertureCodes,
            decode: SonyPropertyValues.aperture),
        binding(
            .exposureCompensation, .exposureBiasCompensation, isNotched: true, absoluteTwin: .sonyExposureCompensation,
            decode: SonyPropertyValues.exposureCompensation),
        binding(.whiteBalance, .whiteBalance, decode: SonyPropertyValues.whiteBalance),
        binding(.focusMode, .focusMode, decode: SonyPropertyValues.focusMode),
        binding(.autoExposureMode, .exposureProgramMode, decode: SonyPropertyValues.exposureMode),
        binding(.driveMode, .stillCaptureMode, decode: SonyPropertyValues.driveMode),
        binding(.batteryLevel, .sonyBatteryLevel, settable: false, decode: SonyPropertyValues.batteryLevel),
        binding(
            .shotsAvailable, .sonyRemainingShots, settable: false, decode: SonyPropertyValues.shotsAvailable),
    ]

    /// The nominal f-numbers from f/1 to f/64 in thirds of a stop, as hundredths, between two codes.
    @Sendable static func nominalApertureCodes(from low: Int64, to high: Int64) -> [Int64] {
        stride(from: 0, through: 72, by: 2).compactMap { sixths in
            ApertureValue(stopsFromF1: ExposureStops(sixths: sixths)).hundredthsOfFNumber.map(Int64.init)
        }.filter { (low...max(low, high)).contains($0) }
    }

    /// The nominal shutter speeds from 30" to 1/8000 in thirds of a stop, in Sony's codes, between the speeds two
    /// codes stand for.
    @Sendable static func nominalShutterCodes(from low: Int64, to high: Int64) -> [Int64] {
        guard let first = SonyPropertyValues.seconds(ofShutterCode: low),
            let last = SonyPropertyValues.seconds(ofShutterCode: high)
        else { return [] }
        // A hundredth of the bounds either way, for nominal speeds that round (1/8000 is 0.000125 s either way).
        let bounds = min(first, last) * 0.99...max(first, last) * 1.01
        return stride(from: 30, through: -78, by: -2).compactMap { sixths in
            let speed = ShutterSpeedValue(stopsFromOneSecond: ExposureStops(sixths: sixths))
            guard let seconds = speed.approximateSeconds, bounds.contains(seconds) else { return nil }
            return SonyPropertyValues.shutterCode(speed)
        }
    }
}
