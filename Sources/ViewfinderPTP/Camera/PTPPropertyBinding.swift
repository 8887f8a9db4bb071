import ViewfinderCore

/// How a camera's vendor extension changes the meaning of property values.
enum PTPVendor: Sendable, Equatable {
    /// Nikon (vendor extension 0x0A): adds values in the 0x8010 range to the standard ones.
    case nikon
    /// Any other camera: standard values only.
    case standard

    init(extensionID: UInt32) {
        self = extensionID == 0x0A ? .nikon : .standard
    }
}

/// Ties one typed camera property to the PTP device property that carries it, in both directions.
///
/// The binding turns a ``PTPDevicePropertyDescription`` into the property's current value and valid settable values
/// (each keeping the camera's integer as its raw value, so that setting it sends that integer back), and names the
/// PTP property a set goes to.
struct PTPPropertyBinding: Sendable {
    /// The PTP property.
    let code: PTPDevicePropertyCode
    /// The ``CameraPropertyIdentifier/name`` of the typed property.
    let name: String
    /// The typed property's name for people, for messages.
    let displayName: String
    /// Passes a description on to the camera's typed property.
    let apply: @Sendable (PTPDevicePropertyDescription, PTPVendor, PTPIPCamera) -> Void

    /// A binding whose values `decode` makes from the camera's integers.
    static func binding<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, _ code: PTPDevicePropertyCode,
        decode: @escaping @Sendable (Int64, PTPVendor) -> TypedCameraPropertyValue<Value>
    ) -> PTPPropertyBinding {
        PTPPropertyBinding(code: code, name: identifier.name, displayName: identifier.localizedDisplayName) {
            description, vendor, camera in
            let current = description.currentValue.integerValue.map { decode($0, vendor) }
            let values = settableValues(of: description) { decode($0, vendor) }
            camera.property(for: identifier).update(currentValue: current, validSettableValues: values)
        }
    }

    /// The values a description allows to be set now: none when the camera says the property cannot be set.
    static func settableValues<Value>(
        of description: PTPDevicePropertyDescription,
        _ decode: @escaping @Sendable (Int64) -> TypedCameraPropertyValue<Value>
    ) -> CameraPropertySettableValues<Value> {
        guard description.isSettable else { return [] }
        switch description.form {
        case .enumeration(let values):
            return CameraPropertySettableValues(values.compactMap { $0.integerValue.map(decode) })
        case .range(let minimum, let maximum, let step):
            guard let low = minimum.integerValue, let high = maximum.integerValue, let step = step.integerValue,
                let range = try? CameraPropertySettableValues<Value>.steppedRange(
                    from: low, through: high, step: max(step, 1), makeValue: { decode($0).commonValue })
            else { return [] }
            return range
        case .none:
            return CameraPropertySettableValues(description.currentValue.integerValue.map { [decode($0)] } ?? [])
        }
    }

    /// The bindings of every typed property a PTP camera can have.
    static let all: [PTPPropertyBinding] = [
        binding(.iso, .exposureIndex, decode: PTPPropertyValues.iso),
        binding(.shutterSpeed, .exposureTime, decode: PTPPropertyValues.shutterSpeed),
        binding(.aperture, .fNumber, decode: PTPPropertyValues.aperture),
        binding(.exposureCompensation, .exposureBiasCompensation, decode: PTPPropertyValues.exposureCompensation),
        binding(.whiteBalance, .whiteBalance, decode: PTPPropertyValues.whiteBalance),
        binding(.focusMode, .focusMode, decode: PTPPropertyValues.focusMode),
        binding(.autoExposureMode, .exposureProgramMode, decode: PTPPropertyValues.exposureProgram),
        binding(.batteryLevel, .batteryLevel, decode: PTPPropertyValues.batteryLevel),
        binding(.driveMode, .stillCaptureMode, decode: PTPPropertyValues.driveMode),
    ]
}
