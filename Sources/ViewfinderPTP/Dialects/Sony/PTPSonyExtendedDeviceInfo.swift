import ViewfinderCore

/// What Sony's GetExtDeviceInfo (``PTPOperationCode/sonyGetExtDeviceInfo``) says: the protocol version the camera
/// speaks and the codes of its properties and controls, which its DeviceInfo leaves out.
///
/// The data is `[u16 version][u32 count][u16 codes][u32 count][u16 codes]`: version 200 (`0xC8`) for bodies before
/// 2020, which move exposure settings a notch at a time, 300 (`0x12C`) for later ones, which take values directly.
/// The first list holds property codes, the second controls (buttons and notches); libgphoto2 merges both into the
/// DeviceInfo by the code's range (0x5000 properties, 0x1000 operations, 0x4000 events), and so does ``codes``.
public struct PTPSonyExtendedDeviceInfo: Hashable, Sendable {
    /// The protocol version, 200 or 300.
    public var version: UInt16
    /// The property codes of the first list.
    public var properties: [UInt16]
    /// The codes of the second list: controls, and on some bodies other codes.
    public var controls: [UInt16]

    /// The protocol version from which the camera takes exposure values directly rather than by notches.
    public static let absoluteSettingVersion: UInt16 = 300

    /// Creates the information.
    public init(version: UInt16, properties: [UInt16], controls: [UInt16]) {
        self.version = version
        self.properties = properties
        self.controls = controls
    }

    /// Decodes GetExtDeviceInfo's data; the second list may be missing, as on bodies that send only one.
    ///
    /// - Throws: `ViewfinderError/Code/malformedData` when a count claims more codes than the data holds.
    public init(decoding data: [UInt8]) throws(ViewfinderError) {
        var reader = PTPDataReader(data, reading: "the camera's GetExtDeviceInfo answer")
        version = try reader.read(UInt16.self)
        properties = try reader.readArray(of: UInt16.self)
        controls = reader.remainingCount >= 4 ? try reader.readArray(of: UInt16.self) : []
    }

    /// The data, as a camera sends it.
    public func encoded() -> [UInt8] {
        var writer = PTPDataWriter(capacity: 10 + 2 * (properties.count + controls.count))
        writer.append(version)
        writer.append(array: properties)
        writer.append(array: controls)
        return writer.bytes
    }

    /// Whether the camera takes exposure values directly (protocol 300 and later).
    public var setsValuesDirectly: Bool { version >= Self.absoluteSettingVersion }

    /// Every code in both lists, as properties, operations and events by their range, as libgphoto2 merges them
    /// into the DeviceInfo; other codes (such as 0xF002) are left out.
    public var codes: (properties: Set<UInt16>, operations: Set<UInt16>, events: Set<UInt16>) {
        var result: (properties: Set<UInt16>, operations: Set<UInt16>, events: Set<UInt16>) = ([], [], [])
        for code in properties + controls {
            switch code & 0x7000 {
            case 0x5000: result.properties.insert(code)
            case 0x1000: result.operations.insert(code)
            case 0x4000: result.events.insert(code)
            default: break
            }
        }
        return result
    }
}
