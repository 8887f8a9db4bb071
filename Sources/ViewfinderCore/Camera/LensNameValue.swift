/// The lens on the camera, by the name the camera gives it, such as "EF50mm f/1.8 STM".
public struct LensNameValue: CameraPropertyValue {
    /// The name as the camera reports it.
    public let name: String

    /// Creates the value of a lens named `name`; `nil` when the name is empty or only spaces, as a camera reports a
    /// body with no lens, or a lens it cannot name.
    public init?(_ name: String) {
        guard name.contains(where: { !$0.isWhitespace }) else { return nil }
        self.name = name
    }

    /// The lens's name.
    public var localizedDisplayValue: String { name }
}
