import Viewfinder

/// A camera property as the camera commands name, show, read, set and watch it, whatever the type of its values.
protocol CommandLineProperty: Sendable {
    /// The name on the command line, such as `iso` or `shutter`.
    var name: String { get }
    /// Other names accepted on the command line, such as `shutter-speed`.
    var aliases: [String] { get }
    /// How values are written, for help and messages, such as `1/250, 2.5", 30", bulb`.
    var valueSyntax: String { get }

    /// What the property of `camera` shows now.
    func reading(of camera: any Camera) -> PropertyReading

    /// Sets the property of `camera` to the value `text` describes and waits until the camera shows it.
    ///
    /// - Throws: ``CommandFailure`` with exit status 65 when the camera does not take that value now, naming the
    ///   values it takes, or 66 when the camera does not report the property; a `ViewfinderError` when the camera
    ///   refuses or does not show the value in time.
    func set(_ text: String, on camera: any Camera) async throws

    /// Calls `handler` with the property's reading whenever its value or its settable values change.
    func observe(_ camera: any Camera, _ handler: @escaping @Sendable (PropertyReading) -> Void) -> ObservationToken
}

/// What a camera property shows at one moment: its value and the values it can be set to.
struct PropertyReading: Encodable, Equatable, Sendable {
    /// The name on the command line, such as `iso`.
    var name: String
    /// The property's name for people, such as `ISO`.
    var displayName: String
    /// The current value as the camera shows it, such as `ISO 800`; `nil` when the camera does not report one.
    var value: String?
    /// The values it can be set to now, in the camera's order; a long range is given by its ends in ``settableRange``.
    var settableValues: [String]
    /// A range of settable values too long to list: its first and last values and how many there are.
    var settableRange: SettableRange?

    /// The ends and size of a long range of values.
    struct SettableRange: Encodable, Equatable, Sendable {
        var first: String
        var last: String
        var count: Int
    }

    /// Whether the camera has the property: it reports a value or values to set.
    var isReported: Bool { value != nil || !settableValues.isEmpty || settableRange != nil }

    /// Whether the property can be set now.
    var isSettable: Bool { !settableValues.isEmpty || settableRange != nil }

    /// The settable values for people: all of them, or a range's ends and size; "read-only" when there are none.
    var settableSummary: String {
        if let settableRange {
            return "\(settableRange.first) to \(settableRange.last) (\(settableRange.count) values)"
        }
        return settableValues.isEmpty ? "read-only" : settableValues.joined(separator: ", ")
    }
}

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
            value: property.currentValue?.localizedDisplayValue, settableValues: [])
        if values.valueSetType == .steppedRange && values.count > Self.longestListedRange,
            let first = values.first, let last = values.last
        {
            reading.settableRange = PropertyReading.SettableRange(
                first: first.localizedDisplayValue, last: last.localizedDisplayValue, count: values.count)
        } else {
            reading.settableValues = values.map(\.localizedDisplayValue)
        }
        return reading
    }

    func set(_ text: String, on camera: any Camera) async throws {
        let property = camera.property(for: identifier)
        let values = property.validSettableValues
        guard property.currentValue != nil || !values.isEmpty else {
            throw CommandFailure(
                "this camera does not report \(property.localizedDisplayName)",
                hint: "'viewfinder camera props' lists the properties it reports.", exitStatus: ExitStatus.notFound)
        }
        guard !values.isEmpty else {
            throw CommandFailure(
                "\(property.localizedDisplayName) cannot be set now: it is read-only, or the camera's mode does not let "
                    + "it be set", hint: "'viewfinder camera props' lists what can be set.",
                exitStatus: ExitStatus.badValue)
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

/// The properties the camera commands know, and how their values are written.
enum CameraProperties {
    /// Every property, in the order `props` lists them.
    static let all: [any CommandLineProperty] = [
        TypedCommandLineProperty(
            identifier: .autoExposureMode, name: "mode", aliases: ["exposure-mode", "autoExposureMode", "program"],
            valueSyntax: "auto, P, A, S, M, B", parse: PropertyValueSyntax.exposureMode),
        TypedCommandLineProperty(
            identifier: .iso, name: "iso", aliases: [], valueSyntax: "800, ISO 800, auto",
            parse: PropertyValueSyntax.iso),
        TypedCommandLineProperty(
            identifier: .shutterSpeed, name: "shutter", aliases: ["shutter-speed", "shutterSpeed", "exposure-time"],
            valueSyntax: "1/250, 0.5, 2.5\", 30s, bulb", parse: PropertyValueSyntax.shutterSpeed),
        TypedCommandLineProperty(
            identifier: .aperture, name: "aperture", aliases: ["f-number", "fnumber"], valueSyntax: "f/8, f8, 5.6",
            parse: PropertyValueSyntax.aperture),
        TypedCommandLineProperty(
            identifier: .exposureCompensation, name: "ev",
            aliases: ["exposure-compensation", "exposureCompensation", "compensation"],
            valueSyntax: "+1/3, -2/3, +1 1/3, 0, -1.5", parse: PropertyValueSyntax.exposureCompensation),
        TypedCommandLineProperty(
            identifier: .whiteBalance, name: "white-balance", aliases: ["wb", "whiteBalance"],
            valueSyntax: "auto, daylight, cloudy, shade, tungsten, fluorescent, flash",
            parse: PropertyValueSyntax.named(WhiteBalanceValue.self)),
        TypedCommandLineProperty(
            identifier: .focusMode, name: "focus", aliases: ["focus-mode", "focusMode"],
            valueSyntax: "MF, AF, AF-S, AF-C, AF-A, macro", parse: PropertyValueSyntax.focusMode),
        TypedCommandLineProperty(
            identifier: .driveMode, name: "drive", aliases: ["drive-mode", "driveMode"],
            valueSyntax: "single, continuous, continuous-high, self-timer",
            parse: PropertyValueSyntax.named(DriveModeValue.self)),
        TypedCommandLineProperty(
            identifier: .batteryLevel, name: "battery", aliases: ["batteryLevel"], valueSyntax: "read-only",
            parse: { _ in nil }),
        TypedCommandLineProperty(
            identifier: .shotsAvailable, name: "shots", aliases: ["shots-available", "shotsAvailable"],
            valueSyntax: "read-only", parse: { _ in nil }),
    ]

    /// The property a command line names, by its name or an alias, in any case.
    ///
    /// - Throws: ``UsageError`` listing the names when none matches.
    static func named(_ name: String, commandPath: String) throws -> any CommandLineProperty {
        let key = name.lowercased()
        for property in all where ([property.name] + property.aliases).contains(where: { $0.lowercased() == key }) {
            return property
        }
        throw UsageError(
            "there is no camera property '\(name)'; the properties are \(all.map(\.name).joined(separator: ", "))",
            commandPath: commandPath)
    }

    /// The names and value syntax of every property, for help.
    static var help: String {
        all.map { "\($0.name) (\($0.valueSyntax))" }.joined(separator: ", ")
    }
}
