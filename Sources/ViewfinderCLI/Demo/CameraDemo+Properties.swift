import Viewfinder

extension CameraDemo {
    /// Prints the properties the camera reports, with their current and settable values.
    static func printPropertyTable(of camera: any Camera) {
        let rows = [
            row(camera.property(for: .autoExposureMode)), row(camera.property(for: .iso)),
            row(camera.property(for: .shutterSpeed)), row(camera.property(for: .aperture)),
            row(camera.property(for: .exposureCompensation)), row(camera.property(for: .whiteBalance)),
            row(camera.property(for: .focusMode)), row(camera.property(for: .driveMode)),
            row(camera.property(for: .batteryLevel)), row(camera.property(for: .shotsAvailable)),
        ].compactMap { $0 }
        Console.print("camera.property(for:) for each standard property: currentValue and validSettableValues")
        Console.printTable(header: ["PROPERTY", "CURRENT", "SETTABLE VALUES"], rows: rows)
    }

    /// A property's row of the table, or `nil` when the camera does not report it.
    private static func row<Value>(_ property: TypedCameraProperty<Value>) -> [String]? {
        guard let current = property.currentValue else { return nil }
        return [
            property.localizedDisplayName, current.localizedDisplayValue, summary(of: property.validSettableValues),
        ]
    }

    /// The settable values in a few words: all of a short list, the ends and the count of a longer one.
    private static func summary<Value>(of values: CameraPropertySettableValues<Value>) -> String {
        guard let first = values.first, let last = values.last else { return "read-only" }
        if values.valueSetType == .steppedRange || values.count > 6 {
            let second = values.count > 2 ? values[values.index(after: values.startIndex)].localizedDisplayValue : ""
            return "\(first.localizedDisplayValue), \(second), … \(last.localizedDisplayValue) (\(values.count) values)"
        }
        return values.map(\.localizedDisplayValue).joined(separator: ", ")
    }

    /// Sets ISO and shutter speed, printing each change as the properties' value publishers report it.
    static func changeExposure(of camera: any Camera) async throws {
        Console.print("Watching both with valuePublisher(for:), which gives the current value, then each change:")
        var watchers = Set<AnyCancellable>()
        camera.valuePublisher(for: .iso).sink { value in
            Console.print("  ISO publisher: \(value?.localizedDisplayValue ?? "no value")")
        }.store(in: &watchers)
        camera.valuePublisher(for: .shutterSpeed).sink { value in
            Console.print("  Shutter Speed publisher: \(value?.localizedDisplayValue ?? "no value")")
        }.store(in: &watchers)

        // Four times the sensitivity and a quarter of the light: the picture stays as bright.
        try await set(camera.property(for: .iso), to: .iso400)
        try await set(camera.property(for: .shutterSpeed), to: ShutterSpeedValue(seconds: 1.0 / 500)!)
        withExtendedLifetime(watchers) {}
    }

    /// Sets a property to the settable value that means `value`, and says how long the camera took to show it.
    private static func set<Value>(_ property: TypedCameraProperty<Value>, to value: Value) async throws {
        let name = property.localizedDisplayName
        let before = property.currentValue?.localizedDisplayValue ?? "no value"
        Console.print("Setting \(name) from \(before) to \(value.localizedDisplayValue) with setValue(_:)")
        let start = ContinuousClock.now
        try await property.setValue(value)
        let now = property.currentValue?.localizedDisplayValue ?? "no value"
        Console.print("\(name) is \(now): the camera showed it \(milliseconds(since: start)) after the call.")
    }
}
