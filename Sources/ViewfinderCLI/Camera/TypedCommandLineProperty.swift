import Viewfinder

/// A ``CommandLineProperty`` for the property of one identifier, whose values `parse` reads from text.
struct TypedCommandLineProperty<Value: CameraPropertyValue>: CommandLineProperty {
    /// The longest range of values listed one by one.
    static var longestListedRange: Int { 256 }

    let identifier: CameraPropertyIdentifier<Value>
    let name: String
    let aliases: [String]
    let valueSyntax: String
    /// The meaning of a value as people write it, such as `.iso800` for "800"; `nil` for text it does not read.
    let parse: @Sendable (String) -> Value?

    func reading(of camera: any Camera) -> PropertyReading {
        let property = camera.property(for: identifier)
        let values = property.validSettableValues
        var reading = PropertyReading(
            name: name, displayName: property.localizedDisplayName,
            value: property.currentValue?.localizedDisplayValue, settableValues: [],
            valueSetType: Self.name(of: values.valueSetType), category: identifier.category.rawValue)
        if values.valueSetType == .numericRange && values.count > Self.longestListedRange,
            let first = values.first, let last = values.last
        {
            reading.settableRange = PropertyReading.SettableRange(
                first: first.localizedDisplayValue, last: last.localizedDisplayValue, count: values.count)
        } else {
            reading.settableValues = values.map(\.localizedDisplayValue)
        }
        return reading
    }

    /// The API's name of a set type, as `--json` gives it.
    static func name(of type: CameraPropertyValueSetType) -> String {
        switch type {
        case .none: "none"
        case .enumeration: "enumeration"
        case .numericRange: "numericRange"
        case .stepping: "stepping"
        }
    }

    var category: CameraPropertyCategory { identifier.category }

    func set(_ text: String, on camera: any Camera) async throws {
        let property = camera.property(for: identifier)
        let values = property.validSettableValues
        guard property.currentValue != nil || values.valueSetType != .none else {
            throw CommandFailure(
                "this camera does not report \(property.localizedDisplayName)",
                hint: "'viewfinder camera props' lists the properties it reports.", exitStatus: ExitStatus.notFound)
        }
        guard values.valueSetType != .none else {
            throw CommandFailure(
                "\(property.localizedDisplayName) cannot be set now: it is read-only, or the camera's mode does not let "
                    + "it be set", hint: "'viewfinder camera props' lists what can be set.",
                exitStatus: ExitStatus.badValue)
        }
        switch PropertyValueSyntax.normalized(text) {
        case "up":
            try await property.increment()
            return
        case "down":
            try await property.decrement()
            return
        default:
            guard values.valueSetType != .stepping else {
                throw CommandFailure(
                    "\(property.localizedDisplayName) cannot be set to '\(text)': this camera moves it a step at a time",
                    hint: "Use 'viewfinder camera set \(name) up' or '… \(name) down'.",
                    exitStatus: ExitStatus.badValue)
            }
        }
        guard let value = match(text, in: values) else {
            throw CommandFailure(
                "\(property.localizedDisplayName) cannot be set to '\(text)' on this camera now",
                hint: "It takes: \(reading(of: camera).settableSummary)", exitStatus: ExitStatus.badValue)
        }
        try await property.setValue(value)
    }

    /// The settable value `text` means: one the camera shows as `text`, or one whose meaning `text` parses to.
    func match(_ text: String, in values: CameraPropertySettableValues<Value>) -> TypedCameraPropertyValue<Value>? {
        let key = PropertyValueSyntax.normalized(text)
        if values.valueSetType == .enumeration,
            let shown = values.first(where: { PropertyValueSyntax.normalized($0.localizedDisplayValue) == key })
        {
            return shown
        }
        guard let meaning = parse(text) else { return nil }
        return values.first(matchingCommonValue: meaning)
    }

    func observe(_ camera: any Camera, _ handler: @escaping @Sendable (PropertyReading) -> Void) -> ObservationToken {
        camera.property(for: identifier).addObserver { _, changeType in
            guard changeType.contains(.value) || changeType.contains(.validSettableValues) else { return }
            handler(reading(of: camera))
        }
    }
}
