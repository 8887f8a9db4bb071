/// One value of a camera property: what it means, how the camera encodes it, and how to show it.
///
/// Every value a ``TypedCameraProperty`` reports — its current value, its pending value and each of its valid
/// settable values — is a `TypedCameraPropertyValue`. Compare meanings with ``commonValue``:
///
/// ```swift
/// if isoProperty.currentValue?.commonValue == .iso100 { print("ISO 100!") }
/// ```
///
/// Two values are equal when they mean the same, carry the same raw value and show the same text; a value the
/// camera reports is never equal to a bare ``commonValue`` constant, which has no raw value.
///
/// Camera implementations make values from what the camera sends:
///
/// ```swift
/// let value = TypedCameraPropertyValue(ISOValue(800)!, rawValue: .integer(800))
/// let vendorOnly = TypedCameraPropertyValue<ISOValue>(
///     unrecognizedRawValue: .integer(0x8012), localizedDisplayValue: "Hi 1")
/// let outsideTheTable = TypedCameraPropertyValue<ApertureValue>.unknown(.integer(0x1CE))
/// ```
public struct TypedCameraPropertyValue<Value: CameraPropertyValue>: Hashable, Sendable, CustomStringConvertible {
    /// What the value means in terms every camera shares, or `nil` when Viewfinder does not know the camera's code.
    public let commonValue: Value?
    /// The camera's own encoding of the value; setting the value sends exactly this back.
    public let rawValue: CameraPropertyRawValue
    /// The value as a camera shows it to people, such as "ISO 800".
    public let localizedDisplayValue: String
    /// Whether the camera sent a code that Viewfinder knows neither a meaning nor a name for, such as a value
    /// outside its dialect's table: it is shown as unknown with its code, and never offered as a settable value.
    public let isUnknown: Bool

    /// Creates a value the camera encodes as `rawValue` and that means `commonValue`.
    ///
    /// - Parameters:
    ///   - commonValue: What the value means.
    ///   - rawValue: The camera's encoding of it.
    ///   - localizedDisplayValue: Text that the camera gives for the value, if it gives any; by default the text
    ///     of `commonValue`.
    public init(_ commonValue: Value, rawValue: CameraPropertyRawValue, localizedDisplayValue: String? = nil) {
        self.commonValue = commonValue
        self.rawValue = rawValue
        self.localizedDisplayValue = localizedDisplayValue ?? commonValue.localizedDisplayValue
        isUnknown = false
    }

    /// Creates a value whose meaning Viewfinder does not know, such as a vendor's own mode.
    ///
    /// - Parameters:
    ///   - rawValue: The camera's encoding of the value.
    ///   - localizedDisplayValue: Text that the camera gives for the value; by default the raw value itself.
    public init(unrecognizedRawValue rawValue: CameraPropertyRawValue, localizedDisplayValue: String? = nil) {
        self.commonValue = nil
        self.rawValue = rawValue
        self.localizedDisplayValue = localizedDisplayValue ?? rawValue.description
        isUnknown = false
    }

    private init(unknown rawValue: CameraPropertyRawValue) {
        commonValue = nil
        self.rawValue = rawValue
        switch rawValue {
        case .integer(let value) where value >= 0:
            let hex = String(value, radix: 16, uppercase: true)
            localizedDisplayValue = "Unknown (0x\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex))"
        default:
            localizedDisplayValue = "Unknown (\(rawValue))"
        }
        isUnknown = true
    }

    /// A value the camera sent whose code Viewfinder knows neither a meaning nor a name for, shown as
    /// `Unknown (0x01CE)`: it can be shown, and ``CameraPropertySettableValues`` never offers it as settable, so that
    /// a code nobody understands is never sent back as if it meant something.
    ///
    /// - Parameter rawValue: The camera's encoding of the value.
    public static func unknown(_ rawValue: CameraPropertyRawValue) -> TypedCameraPropertyValue {
        TypedCameraPropertyValue(unknown: rawValue)
    }

    /// The value as a camera shows it, followed by its raw value, for logs.
    public var description: String { "\(localizedDisplayValue) [\(rawValue)]" }
}
