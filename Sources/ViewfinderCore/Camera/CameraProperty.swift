/// A camera property whatever the type of its values: what lists of properties, such as
/// ``Camera/populatedProperties(in:)``, hold.
///
/// Every ``TypedCameraProperty`` is one. To read or set its values with their meaning, get the typed property:
///
/// ```swift
/// for property in camera.populatedProperties(in: .exposureSetting) {
///     print("\(property.localizedDisplayName): \(property.localizedDisplayValue ?? "-")")
///     if let iso = property as? TypedCameraProperty<ISOValue> { print(iso.commonValue as Any) }
/// }
/// ```
public protocol CameraProperty: AnyObject, Sendable {
    /// The property's identifier, type-erased.
    var anyIdentifier: AnyCameraPropertyIdentifier { get }
    /// The property's name for people, such as "ISO".
    var localizedDisplayName: String { get }
    /// What kind of setting or reading the property is.
    var category: CameraPropertyCategory { get }
    /// The current value as the camera shows it, such as "ISO 800"; `nil` until the camera reports one.
    var localizedDisplayValue: String? { get }
    /// Whether the camera has reported the property: it has a current value or values it can be set to.
    var isReported: Bool { get }
}

extension TypedCameraProperty: CameraProperty {
    /// The property's identifier, type-erased.
    public var anyIdentifier: AnyCameraPropertyIdentifier { AnyCameraPropertyIdentifier(identifier) }

    /// What kind of setting or reading the property is.
    public var category: CameraPropertyCategory { identifier.category }

    /// The current value as the camera shows it, such as "ISO 800"; `nil` until the camera reports one.
    public var localizedDisplayValue: String? { currentValue?.localizedDisplayValue }

    /// Whether the camera has reported the property: it has a current value or values it can be set to.
    public var isReported: Bool {
        state.withLock { $0.currentValue != nil || $0.validSettableValues.valueSetType != .none }
    }
}
