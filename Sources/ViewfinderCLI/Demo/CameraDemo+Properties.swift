import Viewfinder
import ViewfinderSystem

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
        let reported = PublishedValues()
        var watchers = Set<AnyCancellable>()
        camera.valuePublisher(for: .iso).sink { value in
            reported.print("ISO", value?.localizedDisplayValue)
        }.store(in: &watchers)
        camera.valuePublisher(for: .shutterSpeed).sink { value in
            reported.print("Shutter Speed", value?.localizedDisplayValue)
        }.store(in: &watchers)

        // Four times the sensitivity and a quarter of the light: the picture stays as bright.
        try await set(camera.property(for: .iso), to: .iso400, reported: reported)
        try await set(
            camera.property(for: .shutterSpeed), to: ShutterSpeedValue(seconds: 1.0 / 500)!, reported: reported)
        withExtendedLifetime(watchers) {}
    }

    /// Sets a property to the settable value that means `value`, and says how long the camera took to show it.
    ///
    /// Publishers deliver on the thread that is already delivering, so the change may reach the publisher a moment
    /// after `setValue(_:)` returns: the demo waits (up to two seconds) for that line before it goes on.
    private static func set<Value>(
        _ property: TypedCameraProperty<Value>, to value: Value, reported: PublishedValues
    ) async throws {
        let name = property.localizedDisplayName
        let before = property.currentValue?.localizedDisplayValue ?? "no value"
        Console.print("Setting \(name) from \(before) to \(value.localizedDisplayValue) with setValue(_:)")
        let start = ContinuousClock.now
        try await property.setValue(value)
        let elapsed = milliseconds(since: start)
        let now = property.currentValue?.localizedDisplayValue ?? "no value"
        let deadline = ContinuousClock.now + .seconds(2)
        while reported.last(name) != now, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        Console.print("\(name) is \(now): the camera showed it \(elapsed) after the call.")
    }
}

/// The values the demo's publishers printed last, by property name.
private final class PublishedValues: Sendable {
    private let values = Locked<[String: String]>([:])

    /// Prints a publisher's value and remembers it.
    func print(_ name: String, _ value: String?) {
        let text = value ?? "no value"
        Console.print("  \(name) publisher: \(text)")
        values.withLock { $0[name] = text }
    }

    /// The value the publisher of `name` printed last.
    func last(_ name: String) -> String? {
        values.withLock { $0[name] }
    }
}
