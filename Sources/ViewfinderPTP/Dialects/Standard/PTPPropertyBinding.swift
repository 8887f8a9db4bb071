import ViewfinderCore

/// Ties one typed camera property to the PTP device property that carries it, in both directions.
///
/// The binding turns a ``PTPDevicePropertyDescription`` into the property's current value and valid settable values
/// (each keeping the camera's integer as its raw value, so that setting it sends that integer back), and names the
/// PTP property a set goes to. A dialect that reads properties with GetDevicePropDesc lists its bindings, with its
/// vendor's value tables in `decode`.
struct PTPPropertyBinding: Sendable {
    /// The PTP property.
    let code: PTPDevicePropertyCode
    /// The ``CameraPropertyIdentifier/name`` of the typed property.
    let name: String
    /// The typed property's name for people, for messages.
    let displayName: String
    /// Passes a description on to the typed property.
    let apply: @Sendable (PTPDevicePropertyDescription, PTPConnection) -> Void

    /// A binding whose values `decode` makes from the camera's integers.
    static func binding<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, _ code: PTPDevicePropertyCode,
        decode: @escaping @Sendable (Int64) -> TypedCameraPropertyValue<Value>
    ) -> PTPPropertyBinding {
        PTPPropertyBinding(code: code, name: identifier.name, displayName: identifier.localizedDisplayName) {
            description, connection in
            let current = description.currentValue.integerValue.map(decode)
            let values = settableValues(of: description, decode)
            connection.update(identifier, currentValue: current, validSettableValues: values)
        }
    }

    /// The values a description allows to be set now: none when the camera says the property cannot be set; every
    /// value of the property's type when it is settable without a form.
    static func settableValues<Value>(
        of description: PTPDevicePropertyDescription,
        _ decode: @escaping @Sendable (Int64) -> TypedCameraPropertyValue<Value>
    ) -> CameraPropertySettableValues<Value> {
        guard description.isSettable else { return [] }
        switch description.form {
        case .enumeration(let values):
            return CameraPropertySettableValues(values.compactMap { $0.integerValue.map(decode) })
        case .range(let minimum, let maximum, let step):
            guard let low = minimum.integerValue, let high = maximum.integerValue, let step = step.integerValue else {
                return []
            }
            return range(from: low, through: high, step: max(step, 1), decode)
        case .none:
            // ISO 15740: no form means any value of the type. A collection counts at most Int.max values, so a
            // 64-bit type's range is cut to the widest that fits: around zero for INT64, from zero for UINT64.
            guard let bounds = description.dataType.integerBounds else { return [] }
            let (low, high) =
                bounds.lowerBound == .min
                ? (-(Int64.max / 2), Int64.max / 2) : (bounds.lowerBound, min(bounds.upperBound, Int64.max - 1))
            return range(from: low, through: high, step: 1, decode)
        }
    }

    private static func range<Value>(
        from low: Int64, through high: Int64, step: Int64,
        _ decode: @escaping @Sendable (Int64) -> TypedCameraPropertyValue<Value>
    ) -> CameraPropertySettableValues<Value> {
        (try? CameraPropertySettableValues<Value>.numericRange(
            from: low, through: high, step: step, makeValue: { decode($0).commonValue })) ?? []
    }

    /// The bindings of the standard properties, with ISO 15740's value tables.
    static let standard: [PTPPropertyBinding] = [
        binding(.iso, .exposureIndex, decode: StandardPropertyValues.iso),
        binding(.shutterSpeed, .exposureTime, decode: StandardPropertyValues.shutterSpeed),
        binding(.aperture, .fNumber, decode: StandardPropertyValues.aperture),
        binding(.exposureCompensation, .exposureBiasCompensation, decode: StandardPropertyValues.exposureCompensation),
        binding(.whiteBalance, .whiteBalance, decode: { StandardPropertyValues.whiteBalance($0) }),
        binding(.focusMode, .focusMode, decode: { StandardPropertyValues.focusMode($0) }),
        binding(.autoExposureMode, .exposureProgramMode, decode: { StandardPropertyValues.exposureProgram($0) }),
        binding(.batteryLevel, .batteryLevel, decode: StandardPropertyValues.batteryLevel),
        binding(.driveMode, .stillCaptureMode, decode: { StandardPropertyValues.driveMode($0) }),
        binding(.meteringMode, .exposureMeteringMode, decode: StandardPropertyValues.meteringMode),
        binding(.focalLength, .focalLength, decode: StandardPropertyValues.focalLength),
    ]
}
