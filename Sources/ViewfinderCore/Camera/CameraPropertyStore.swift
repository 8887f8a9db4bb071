import ViewfinderSystem

/// Makes and keeps a camera's properties: one ``TypedCameraProperty`` per identifier, for camera implementations.
///
/// ```swift
/// final class MyCamera: Camera, CameraPropertyBackend {
///     private let properties = CameraPropertyStore()
///
///     func property<Value>(for identifier: CameraPropertyIdentifier<Value>) -> TypedCameraProperty<Value> {
///         properties.property(for: identifier, backend: self)
///     }
///
///     private func connectionDidEnd(_ error: ViewfinderError) {
///         properties.resetAll(failingRequestsWith: error)
///     }
///     // …
/// }
/// ```
public final class CameraPropertyStore: Sendable {
    private struct Key: Hashable {
        let name: String
        let valueType: ObjectIdentifier
    }

    private struct Entry: Sendable {
        let property: any CameraProperty
        let reset: @Sendable (ViewfinderError) -> Void
    }

    private let entries = Locked<[Key: Entry]>([:])

    /// How long a set waits by default, in every property the store makes, for the camera to show the new value.
    public let setValueTimeout: Duration

    /// Creates an empty store.
    ///
    /// - Parameter setValueTimeout: How long a set waits by default for the camera to show the new value.
    public init(setValueTimeout: Duration = .seconds(10)) {
        self.setValueTimeout = setValueTimeout
    }

    /// The property for `identifier`, made on first use with `backend` and returned by every later call.
    public func property<Value>(
        for identifier: CameraPropertyIdentifier<Value>,
        backend: any CameraPropertyBackend
    ) -> TypedCameraProperty<Value> {
        let key = Key(name: identifier.name, valueType: ObjectIdentifier(Value.self))
        return entries.withLock { entries in
            if let existing = entries[key]?.property as? TypedCameraProperty<Value> {
                return existing
            }
            let property = TypedCameraProperty(
                identifier: identifier, backend: backend, setValueTimeout: setValueTimeout)
            entries[key] = Entry(property: property, reset: property.reset(failingRequestsWith:))
            return property
        }
    }

    /// The identifiers of the properties the camera has reported: those with a value or values they can be set to.
    public var reportedIdentifiers: Set<AnyCameraPropertyIdentifier> {
        Set(allProperties.filter(\.isReported).map(\.anyIdentifier))
    }

    /// The properties of `category` that have a value now, by name.
    public func populatedProperties(in category: CameraPropertyCategory) -> [any CameraProperty] {
        allProperties.filter { $0.category == category && $0.localizedDisplayValue != nil }
            .sorted { $0.anyIdentifier.name < $1.anyIdentifier.name }
    }

    private var allProperties: [any CameraProperty] {
        entries.withLock { $0.values.map(\.property) }
    }

    /// The names of the properties made so far.
    public var propertyNames: [String] {
        entries.withLock { $0.keys.map(\.name) }.sorted()
    }

    /// Forgets the values of every property, as when the camera disconnects; sets under way fail with `error`.
    public func resetAll(failingRequestsWith error: ViewfinderError) {
        let resets = entries.withLock { $0.values.map(\.reset) }
        for reset in resets {
            reset(error)
        }
    }
}
