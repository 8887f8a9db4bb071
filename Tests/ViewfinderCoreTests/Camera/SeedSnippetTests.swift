import Testing
import ViewfinderCore
import ViewfinderSystem

/// The strongly-typed property example of the reference API, run against the fake camera.
///
/// Two lines of the example cannot compile together as written in any Swift API: `isoProperty.currentValue` needs a
/// property that is not optional, and `isoProperty?.commonValue` one that is. The example's comment says
/// `property(for:)` "gives you a `TypedCameraProperty<ISOValue>`", and the same object for every call, so the
/// property is not optional and the `?` moves: `isoProperty.commonValue`. A property exists before its camera
/// reports a value, so `currentValue` is optional and its text is read with `?.` and a fallback; interpolating an
/// optional would only print "Optional(…)". Everything else is as written, `print` included, recorded here so that
/// the output can be checked.
@Suite struct SeedSnippetTests {
    @Test func stronglyTypedPropertyExample() async throws {
        let camera = FakeCamera()
        try await camera.connect()
        let printed = Locked<[String]>([])
        let print: @Sendable (String) -> Void = { line in printed.withLock { $0.append(line) } }

        let isoProperty = camera.property(for: .iso)  // Gives you a `TypedCameraProperty<ISOValue>`
        print("ISO is: \(isoProperty.currentValue?.localizedDisplayValue ?? "unknown")")

        // Because properties are strongly-typed, we can do nice logic.
        if isoProperty.commonValue == .iso100 { print("ISO 100!") }

        // Important: The observation will invalidate when this token is
        // deallocated — it should be stored somewhere!
        let property = isoProperty
        var observerToken: ObservationToken? = property.addObserver { property, changeType in
            if changeType.contains(.value) {
                print("ISO changed to: \(property.currentValue?.localizedDisplayValue ?? "unknown")!")
            }

            if changeType.contains(.validSettableValues) {
                print(
                    "Valid ISOs changed to: \(property.validSettableValues.compactMap({ $0.localizedDisplayValue }))!")
            }
        }

        try await isoProperty.setValue(.iso100)
        if isoProperty.commonValue == .iso100 { print("ISO 100!") }
        isoProperty.update(validSettableValues: [TypedCameraPropertyValue(.iso100, rawValue: .integer(100))])
        #expect(observerToken != nil && isoProperty.hasObservers)
        observerToken = nil
        try await isoProperty.setValue(.iso100)

        #expect(
            printed.withLock { $0 } == [
                "ISO is: ISO 400",
                "ISO changed to: ISO 100!",
                "ISO 100!",
                "Valid ISOs changed to: [\"ISO 100\"]!",
            ])
    }
}
