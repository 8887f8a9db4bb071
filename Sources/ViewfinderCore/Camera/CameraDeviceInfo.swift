/// Who made a camera, which model it is, and which unit.
public struct CameraDeviceInfo: Hashable, Sendable, CustomStringConvertible {
    /// The maker, such as "Nikon Corporation".
    public var manufacturer: String
    /// The model, such as "Z 6".
    public var model: String
    /// The unit's serial number.
    public var serialNumber: String
    /// The firmware or device version.
    public var version: String

    /// Creates device information.
    public init(manufacturer: String, model: String, serialNumber: String, version: String) {
        self.manufacturer = manufacturer
        self.model = model
        self.serialNumber = serialNumber
        self.version = version
    }

    /// "Maker Model (serial …, version …)".
    public var description: String {
        "\(manufacturer) \(model) (serial \(serialNumber), version \(version))"
    }
}
