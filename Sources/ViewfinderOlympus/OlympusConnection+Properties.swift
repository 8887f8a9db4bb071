import ViewfinderCore
import ViewfinderDiscovery

extension OlympusConnection {
    /// The camera's property name of each property the driver reads and sets.
    static let propertyNames: [String: String] = [
        CameraPropertyIdentifier.autoExposureMode.name: "takemode",
        CameraPropertyIdentifier.iso.name: "isospeedvalue", CameraPropertyIdentifier.aperture.name: "focalvalue",
        CameraPropertyIdentifier.shutterSpeed.name: "shutspeedvalue",
        CameraPropertyIdentifier.exposureCompensation.name: "expcomp",
        CameraPropertyIdentifier.whiteBalance.name: "wbvalue", CameraPropertyIdentifier.driveMode.name: "drivemode",
        CameraPropertyIdentifier.focusMode.name: "focusmode",
    ]

    /// The body of a `set_camprop` POST, as OI.Share writes it.
    static func setBody(_ value: String) -> [UInt8] {
        Array("<?xml version=\"1.0\"?>\r\n<set>\r\n<value>\(XMLElements.escaped(value))</value>\r\n</set>\r\n".utf8)
    }

    /// Sends a property's new value with `set_camprop` in recording mode, then reads the descriptions again so the
    /// property shows it.
    ///
    /// - Throws: `ViewfinderError/Code/notAvailable` for a property the camera does not set this way or refuses now;
    ///   `ViewfinderError/Code/invalidPropertyValue` for a value that is not text; what a command throws.
    public func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        guard let property = Self.propertyNames[name] else {
            throw ViewfinderError(.notAvailable, "the Olympus has no property Viewfinder knows for \(name)")
        }
        guard case .string(let value) = rawValue else {
            throw ViewfinderError(.invalidPropertyValue, "an Olympus takes \(name) as text, not \(rawValue)")
        }
        try await inMode(.recording) { [self] in
            _ = try await command(
                "set_camprop", [("com", "set"), ("propname", property)], body: Self.setBody(value))
            // The camera took the value: the property shows it now, or at the next poll if this reading fails.
            try? await readProperties()
        }
    }

    /// Reads the property descriptions (`desclist`) and passes each property's value and the values it takes now to
    /// the camera's properties; the camera must be in recording mode.
    ///
    /// An answer the same, byte for byte, as the one passed last is not read again: the properties show it already,
    /// as they do at most polls.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` for descriptions out of form, or what a command throws.
    func readProperties() async throws(ViewfinderError) {
        let body = try await command("get_camprop", [("com", "desc"), ("propname", "desclist")])
        guard state.withLock({ $0.descriptions != body }) else { return }
        let descriptions = try OlympusPropertyDescription.list(parsing: body)
        let byName = Dictionary(descriptions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        report(.autoExposureMode, byName["takemode"], OlympusPropertyValues.exposureMode)
        report(.iso, byName["isospeedvalue"], OlympusPropertyValues.iso)
        report(.aperture, byName["focalvalue"], OlympusPropertyValues.aperture)
        report(.shutterSpeed, byName["shutspeedvalue"], OlympusPropertyValues.shutterSpeed)
        report(.exposureCompensation, byName["expcomp"], OlympusPropertyValues.exposureCompensation)
        report(.whiteBalance, byName["wbvalue"], OlympusPropertyValues.whiteBalance)
        report(.driveMode, byName["drivemode"], OlympusPropertyValues.driveMode)
        report(.focusMode, byName["focusmode"], OlympusPropertyValues.focusMode)
        state.withLock { $0.descriptions = body }
    }

    /// Passes a description to its property: its value, and the values it takes when the camera lets it be set.
    private func report<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, _ description: OlympusPropertyDescription?,
        _ decode: (String) -> TypedCameraPropertyValue<Value>
    ) {
        guard let description else {
            context.update(identifier, currentValue: nil, validSettableValues: [])
            return
        }
        let value = decode(description.value)
        let valid = description.isSettable ? CameraPropertySettableValues(description.values.map(decode)) : []
        context.update(identifier, currentValue: value, validSettableValues: valid)
    }
}
