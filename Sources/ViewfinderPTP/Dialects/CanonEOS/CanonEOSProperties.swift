import ViewfinderCore
import ViewfinderSystem

/// An EOS camera's properties as its events report them: each property's value and the values it accepts, passed on
/// to the typed properties, and sets sent with SetDevicePropValueEx.
///
/// EOS cameras describe no property with GetDevicePropDesc: everything arrives in GetEvent records, values and
/// lists separately, so the store keeps both and updates a typed property whenever either changes.
final class CanonEOSProperties: Sendable {
    /// Ties a typed property to an EOS property.
    struct Binding: Sendable {
        let code: PTPDevicePropertyCode
        let name: String
        let displayName: String
        /// How many of the value's bytes count: 1, 2 or 4; none for text.
        let width: Int
        /// How the camera writes the value.
        var encoding = Encoding.number
        let apply: @Sendable (Reported, PTPConnection) -> Void
    }

    /// How an EOS property's value is written.
    enum Encoding: Sendable {
        /// A number in the first ``Binding/width`` bytes of a four-byte slot.
        case number
        /// A NUL-terminated string.
        case text
        /// An image format, packed as ``CanonEOSImageFormat`` reads it.
        case imageFormat
    }

    /// What the camera has reported of one property.
    struct Reported: Sendable {
        var value: Int64?
        /// The value of a text property.
        var text: String?
        var allowed: [Int64]?
        /// When the value arrived.
        var reportedAt: MonotonicTimestamp?
    }

    private let connection: PTPConnection
    private let bindings: [UInt16: Binding]
    private let reported = Locked<[UInt16: Reported]>([:])

    init(connection: PTPConnection) {
        self.connection = connection
        bindings = Dictionary(uniqueKeysWithValues: Self.all.map { ($0.code.rawValue, $0) })
    }

    /// A binding whose values `decode` makes from the camera's integers; `width` bytes of the value count.
    static func binding<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, _ code: PTPDevicePropertyCode, width: Int,
        decode: @escaping @Sendable (Int64) -> TypedCameraPropertyValue<Value>,
        settable: Bool = true
    ) -> Binding {
        Binding(code: code, name: identifier.name, displayName: identifier.localizedDisplayName, width: width) {
            reported, connection in
            let values =
                settable
                ? CameraPropertySettableValues((reported.allowed ?? []).map(decode)) : CameraPropertySettableValues([])
            connection.update(identifier, currentValue: reported.value.map(decode), validSettableValues: values)
        }
    }

    /// A read-only binding whose value `decode` makes from the camera's text; `nil` from `decode` shows no value.
    static func textBinding<Value>(
        _ identifier: CameraPropertyIdentifier<Value>, _ code: PTPDevicePropertyCode,
        decode: @escaping @Sendable (String) -> TypedCameraPropertyValue<Value>?
    ) -> Binding {
        Binding(
            code: code, name: identifier.name, displayName: identifier.localizedDisplayName, width: 0, encoding: .text
        ) { reported, connection in
            connection.update(
                identifier, currentValue: reported.text.flatMap(decode), validSettableValues: .init([]))
        }
    }

    /// The properties Viewfinder types, with Canon's value tables.
    static let all: [Binding] = [
        binding(.iso, .canonEOSISOSpeed, width: 2, decode: CanonEOSPropertyValues.iso),
        binding(.aperture, .canonEOSAperture, width: 2, decode: CanonEOSPropertyValues.aperture),
        binding(.shutterSpeed, .canonEOSShutterSpeed, width: 2, decode: CanonEOSPropertyValues.shutterSpeed),
        binding(
            .exposureCompensation, .canonEOSExposureCompensation, width: 1,
            decode: CanonEOSPropertyValues.exposureCompensation),
        binding(.autoExposureMode, .canonEOSAutoExposureMode, width: 2, decode: CanonEOSPropertyValues.exposureMode),
        binding(.whiteBalance, .canonEOSWhiteBalance, width: 1, decode: CanonEOSPropertyValues.whiteBalance),
        binding(.driveMode, .canonEOSDriveMode, width: 2, decode: CanonEOSPropertyValues.driveMode),
        binding(.focusMode, .canonEOSFocusMode, width: 2, decode: CanonEOSPropertyValues.focusMode),
        binding(
            .batteryLevel, .canonEOSBatteryPower, width: 2, decode: CanonEOSPropertyValues.batteryLevel,
            settable: false),
        binding(
            .shotsAvailable, .canonEOSAvailableShots, width: 4, decode: CanonEOSPropertyValues.shotsAvailable,
            settable: false),
        binding(.meteringMode, .canonEOSMeteringMode, width: 1, decode: CanonEOSPropertyValues.meteringMode),
        binding(
            .imageDestination, .canonEOSCaptureDestination, width: 4, decode: CanonEOSPropertyValues.imageDestination),
        binding(.colorTone, .canonEOSPictureStyle, width: 1, decode: CanonEOSPropertyValues.colorTone),
        binding(.mirrorLockupEnabled, .canonEOSMirrorUpSetting, width: 4, decode: CanonEOSPropertyValues.onOff),
        binding(.depthOfFieldPreview, .canonEOSDepthOfFieldPreview, width: 4, decode: CanonEOSPropertyValues.onOff),
        textBinding(.lensName, .canonEOSLensName, decode: CanonEOSPropertyValues.lensName),
        imageFormatBinding,
    ]

    /// The camera's image format as the image quality, in libgphoto2's condensed 16-bit values.
    private static var imageFormatBinding: Binding {
        var format = binding(.imageQuality, .canonEOSImageFormat, width: 2, decode: CanonEOSPropertyValues.imageQuality)
        format.encoding = .imageFormat
        return format
    }

    /// The width of the values of the EOS properties the dialect reads without typing them.
    private static let widths: [UInt16: Int] = [
        PTPDevicePropertyCode.canonEOSEVFOutputDevice.rawValue: 2,
        PTPDevicePropertyCode.canonEOSEVFMode.rawValue: 2,
        PTPDevicePropertyCode.canonEOSEVFRecordStatus.rawValue: 2,
    ]

    private func width(of code: UInt16) -> Int { bindings[code]?.width ?? Self.widths[code] ?? 4 }

    /// The integer in the first `width` bytes of a value, little-endian; `nil` when fewer bytes came.
    private static func integer(_ bytes: [UInt8], width: Int) -> Int64? {
        guard bytes.count >= width else { return nil }
        return bytes.prefix(width).reversed().reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    /// Takes in the property records of one GetEvent answer, and updates the typed properties they touch.
    func apply(_ events: [PTPCanonEOSEvent]) {
        var touched = Set<UInt16>()
        reported.withLock { reported in
            for event in events {
                switch event {
                case .propertyChanged(let code, let bytes) where bindings[code.rawValue]?.encoding == .text:
                    reported[code.rawValue, default: Reported()].text = String(
                        decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                    reported[code.rawValue]?.reportedAt = .now()
                    touched.insert(code.rawValue)
                case .propertyChanged(let code, let bytes) where bindings[code.rawValue]?.encoding == .imageFormat:
                    var offset = 0
                    // A format out of form is no value, as libgphoto2 reads it: the property shows none.
                    guard let value = CanonEOSImageFormat.condense(bytes, at: &offset) else { continue }
                    reported[code.rawValue, default: Reported()].value = Int64(value)
                    reported[code.rawValue]?.reportedAt = .now()
                    touched.insert(code.rawValue)
                case .propertyChanged(let code, let bytes):
                    guard let value = Self.integer(bytes, width: width(of: code.rawValue)) else { continue }
                    reported[code.rawValue, default: Reported()].value = value
                    reported[code.rawValue]?.reportedAt = .now()
                    touched.insert(code.rawValue)
                case .allowedValuesChanged(let code, let values):
                    let mask = (Int64(1) << (8 * width(of: code.rawValue))) - 1
                    reported[code.rawValue, default: Reported()].allowed = values.map { Int64($0) & mask }
                    touched.insert(code.rawValue)
                case .other(CanonEOSOLCInfo.recordType, let payload):
                    // Newer bodies report exposure in OLC records too, read by the version they reported.
                    let version = reported[PTPDevicePropertyCode.canonEOSOLCInfoVersion.rawValue]?.value ?? 0
                    for (code, value) in CanonEOSOLCInfo.exposure(in: payload, version: UInt32(clamping: version)) {
                        reported[code.rawValue, default: Reported()].value = value
                        touched.insert(code.rawValue)
                    }
                default:
                    break
                }
            }
        }
        for code in touched {
            guard let binding = bindings[code] else { continue }
            let state = reported.withLock { $0[code] } ?? Reported()
            binding.apply(state, connection)
        }
    }

    /// The value the camera reported last for `code`.
    func value(of code: PTPDevicePropertyCode) -> Int64? {
        reported.withLock { $0[code.rawValue]?.value }
    }

    /// The value the camera reported last for `code`, and when it arrived.
    func reading(of code: PTPDevicePropertyCode) -> (value: Int64, reportedAt: MonotonicTimestamp)? {
        reported.withLock { reported in
            reported[code.rawValue].flatMap { reading in
                reading.value.flatMap { value in reading.reportedAt.map { (value, $0) } }
            }
        }
    }

    /// The values the camera accepts for `code`, as it reported them last.
    func allowedValues(of code: PTPDevicePropertyCode) -> [Int64]? {
        reported.withLock { $0[code.rawValue]?.allowed }
    }

    /// Whether the camera has reported `code` at all.
    func hasReported(_ code: PTPDevicePropertyCode) -> Bool {
        reported.withLock { $0[code.rawValue] != nil }
    }

    /// Sends a typed property's new value with SetDevicePropValueEx.
    ///
    /// - Throws: ``ViewfinderError/Code/notAvailable`` for a property the camera does not have, and what the camera
    ///   answered.
    func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        guard let binding = bindings.values.first(where: { $0.name == name }), let value = rawValue.integerValue else {
            throw ViewfinderError(.notAvailable, "\(connection.model) has no \(name) to set over PTP")
        }
        guard binding.encoding != .text else {
            throw ViewfinderError(.notAvailable, "\(binding.displayName) on \(connection.model) is read-only")
        }
        do {
            if binding.encoding == .imageFormat {
                try await send(binding.code, CanonEOSImageFormat.pack(UInt16(truncatingIfNeeded: value)))
            } else {
                try await set(binding.code, to: value)
            }
        } catch let error as ViewfinderError where error.code == .protocolFailure {
            throw ViewfinderError(
                .invalidPropertyValue,
                "the camera refused \(binding.displayName) \(value): "
                    + "\(error.responseCode.map { PTPResponseCode(rawValue: $0).description } ?? "an error")",
                responseCode: error.responseCode)
        }
    }

    /// Sends SetDevicePropValueEx: `[12][code][value in a four-byte slot]`.
    func set(_ code: PTPDevicePropertyCode, to value: Int64) async throws {
        try await send(code, withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian, Array.init))
    }

    /// Sends SetDevicePropValueEx: `[size][code][value]`, the size counting all three.
    private func send(_ code: PTPDevicePropertyCode, _ value: [UInt8]) async throws {
        var writer = PTPDataWriter(capacity: 8 + value.count)
        writer.append(UInt32(8 + value.count))
        writer.append(UInt32(code.rawValue))
        writer.append(bytes: value)
        _ = try await connection.session.transaction(.canonEOSSetDevicePropValueEx, sending: writer.bytes)
    }
}
