/// A ``CameraPropertyIdentifier`` of any value type: its name, display name and category, for lists of properties
/// whose value types differ, such as ``Camera/knownPropertyIdentifiers``.
///
/// ```swift
/// for identifier in camera.knownPropertyIdentifiers where identifier.category == .information {
///     print(identifier.localizedDisplayName)
/// }
/// if camera.knownPropertyIdentifiers.contains(AnyCameraPropertyIdentifier(.iso)) { print("ISO is known") }
/// ```
///
/// Two are equal when they identify the same property: the same name and the same value type.
public struct AnyCameraPropertyIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The stable name of the property, such as `"iso"`.
    public let name: String
    /// The property's name for people, such as "ISO".
    public let localizedDisplayName: String
    /// What kind of setting or reading the property is.
    public let category: CameraPropertyCategory
    /// The type of the property's values, such as `ISOValue.self`.
    public let valueType: any CameraPropertyValue.Type

    /// The type-erased form of `identifier`.
    public init<Value>(_ identifier: CameraPropertyIdentifier<Value>) {
        name = identifier.name
        localizedDisplayName = identifier.localizedDisplayName
        category = identifier.category
        valueType = Value.self
    }

    /// The typed identifier, when the property's values are of type `Value`; `nil` otherwise.
    ///
    /// ```swift
    /// if let iso = identifier.typed(as: ISOValue.self) { print(camera.property(for: iso).commonValue as Any) }
    /// ```
    public func typed<Value>(as type: Value.Type) -> CameraPropertyIdentifier<Value>? {
        guard valueType == type else { return nil }
        return CameraPropertyIdentifier(name: name, localizedDisplayName: localizedDisplayName, category: category)
    }

    /// Whether two identify the same property.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && ObjectIdentifier(lhs.valueType) == ObjectIdentifier(rhs.valueType)
    }

    /// Hashes the name and value type.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(ObjectIdentifier(valueType))
    }

    /// The stable name.
    public var description: String { name }
}
