import ViewfinderCore
import ViewfinderPTP
import ViewfinderPTPIP

/// One property of the simulated camera: its type, value, the values it accepts and whether it can be set.
struct SimulatedProperty: Sendable {
    /// The property's code.
    let code: PTPDevicePropertyCode
    /// The type of its values.
    let dataType: PTPDataType
    /// The factory default.
    let factoryDefault: PTPValue
    /// The current value.
    var value: PTPValue
    /// The values it accepts.
    var form: PTPDevicePropertyDescription.Form
    /// Whether a client may set it now.
    var isSettable: Bool
    /// A check for values the form cannot express, such as the date's format.
    var accepts: @Sendable (PTPValue) -> Bool = { _ in true }

    /// A property whose value is one of `values`.
    static func enumeration(
        _ code: PTPDevicePropertyCode, _ values: [PTPValue], current: PTPValue, isSettable: Bool = true
    ) -> SimulatedProperty {
        SimulatedProperty(
            code: code, dataType: current.dataType, factoryDefault: current, value: current,
            form: .enumeration(values), isSettable: isSettable)
    }

    /// The property's description, as GetDevicePropDesc returns it.
    var description: PTPDevicePropertyDescription {
        PTPDevicePropertyDescription(
            code: code, dataType: dataType, isSettable: isSettable, factoryDefaultValue: factoryDefault,
            currentValue: value, form: form)
    }

    /// Checks a new value sent by a client and returns the response code for it.
    func validate(_ candidate: PTPValue) -> PTPResponseCode {
        guard isSettable else { return .accessDenied }
        guard form.allows(candidate), accepts(candidate) else { return .invalidDevicePropValue }
        return .ok
    }

    /// Decodes a value sent in a SetDevicePropValue data phase.
    ///
    /// - Returns: The value, or `nil` when the bytes are not exactly one value of the property's type.
    func decode(_ bytes: [UInt8]) -> PTPValue? {
        var reader = PTPDataReader(bytes, reading: "a value of \(code)")
        guard let value = try? reader.readValue(of: dataType), reader.isAtEnd else { return nil }
        return value
    }
}
