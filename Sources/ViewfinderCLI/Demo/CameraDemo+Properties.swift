import Viewfinder

extension CameraDemo {
    /// Prints the properties the camera reports, with their current and settable values, as `camera props` does.
    static func printPropertyTable(of camera: any Camera) {
        let readings = CameraProperties.all.map { $0.reading(of: camera) }.filter(\.isReported)
        Console.print("camera.property(for:) for each standard property: currentValue and validSettableValues")
        Console.printTable(
            header: ["PROPERTY", "CURRENT", "SETTABLE VALUES"],
            rows: readings.map { [$0.displayName, $0.value ?? "-", $0.settableSummary] })
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
