import ViewfinderCore
import ViewfinderSystem

/// The typed properties of a camera that describes them with GetDevicePropDesc and takes new values with
/// SetDevicePropValue: reading, re-reading on DevicePropChanged, and setting, for one connection.
///
/// A dialect makes one per connection with its list of bindings; the standard dialect uses
/// ``PTPPropertyBinding/standard``.
final class StandardProperties: Sendable {
    private let connection: PTPConnection
    private let bindings: [PTPPropertyBinding]
    /// The data type of each property the camera described, for encoding new values.
    private let dataTypes = Locked<[PTPDevicePropertyCode: PTPDataType]>([:])

    /// Creates the properties of `connection` with `bindings`.
    init(connection: PTPConnection, bindings: [PTPPropertyBinding]) {
        self.connection = connection
        self.bindings = bindings
    }

    /// The properties the camera described all at once (as a Fujifilm does with its GetDeviceInfo, 0x902B), which it
    /// has whether or not its DeviceInfo lists them.
    private let described = Locked<Set<PTPDevicePropertyCode>>([])

    /// Whether the camera has a property: its DeviceInfo lists it, or the camera described it.
    func has(_ code: PTPDevicePropertyCode) -> Bool {
        connection.deviceInfo.supports(code) || described.withLock { $0.contains(code) }
    }

    /// Reads every bound property the camera has, and the shots available, as a connection opens: from
    /// `descriptions`, the camera's descriptions of many properties in one answer, where they hold the property, and
    /// with GetDevicePropDesc otherwise.
    ///
    /// - Throws: Errors that end the session; a camera refusing to describe a property leaves it unreported.
    func readAll(describedBy descriptions: [PTPDevicePropertyDescription] = []) async throws {
        described.withLock { $0.formUnion(descriptions.map(\.code)) }
        for binding in bindings where has(binding.code) {
            if let description = descriptions.last(where: { $0.code == binding.code }) {
                take(description, for: binding)
            } else {
                try await refresh(binding)
            }
        }
        try await refreshShotsAvailable()
    }

    /// Whether a property code has a binding.
    func binds(_ code: PTPDevicePropertyCode) -> Bool {
        bindings.contains { $0.code == code }
    }

    /// Reads again the property a DevicePropChanged event names, if it has a binding.
    func refresh(_ code: PTPDevicePropertyCode) async {
        guard let binding = bindings.first(where: { $0.code == code }) else { return }
        try? await refresh(binding)
    }

    /// Reads a property's description and passes it on to its typed property.
    private func refresh(_ binding: PTPPropertyBinding) async throws {
        let description: PTPDevicePropertyDescription
        do {
            description = try await connection.session.propertyDescription(binding.code)
        } catch let error as ViewfinderError where error.code == .protocolFailure || error.code == .malformedData {
            return
        }
        take(description, for: binding)
    }

    /// Passes a property's description on to its typed property, keeping its data type for new values.
    private func take(_ description: PTPDevicePropertyDescription, for binding: PTPPropertyBinding) {
        dataTypes.withLock { $0[binding.code] = description.dataType }
        binding.apply(description, connection)
    }

    /// Sends a property's new value with SetDevicePropValue, then reads the property back.
    ///
    /// Reading back keeps the property current with cameras that do not report their own changes; those that do
    /// report them are read again when their DevicePropChanged event arrives, which changes nothing.
    ///
    /// - Throws: ``ViewfinderError/Code/invalidPropertyValue`` when the camera answers InvalidDevicePropValue,
    ///   ``ViewfinderError/Code/notAvailable`` when it answers AccessDenied (its exposure mode sets the property)
    ///   or does not have the property, ``ViewfinderError/Code/deviceBusy``, or the error that ended the session.
    func setRawValue(_ rawValue: CameraPropertyRawValue, forPropertyNamed name: String) async throws {
        guard let binding = bindings.first(where: { $0.name == name }) else {
            throw ViewfinderError(.notAvailable, "\(connection.model) has no property named \(name) over PTP")
        }
        let info = connection.deviceInfo
        guard has(binding.code), info.supports(.setDevicePropValue) else {
            throw ViewfinderError(.notAvailable, "\(info.model) cannot set \(binding.displayName) (\(binding.code))")
        }
        let dataType = dataTypes.withLock { $0[binding.code] }
        guard let integer = rawValue.integerValue, let dataType, let value = PTPValue(integer: integer, as: dataType)
        else {
            throw ViewfinderError(
                .invalidPropertyValue,
                "\(rawValue) is not a \(dataType.map(\.description) ?? "known") value for \(binding.displayName)")
        }
        do {
            try await connection.session.setPropertyValue(binding.code, to: value)
        } catch let error as ViewfinderError {
            throw Self.settingError(
                connection.lostSessionError(error, while: "set \(binding.displayName)"), name: binding.displayName,
                value: "\(value)")
        }
        try? await refresh(binding)
    }

    /// What a refused set means, in the terms of the typed property.
    static func settingError(_ error: ViewfinderError, name: String, value: String) -> ViewfinderError {
        guard error.code == .protocolFailure, let code = error.responseCode.map(PTPResponseCode.init(rawValue:)) else {
            return error
        }
        switch code {
        case .invalidDevicePropValue, .invalidDevicePropFormat:
            return ViewfinderError(
                .invalidPropertyValue,
                "the camera refused \(name) \(value): it is not a value the camera accepts now; choose one of the "
                    + "property's valid settable values", responseCode: code.rawValue)
        case .accessDenied:
            return ViewfinderError(
                .notAvailable,
                "the camera does not let \(name) be set now; its exposure mode or another setting may control it",
                responseCode: code.rawValue)
        case .deviceBusy:
            return ViewfinderError(
                .deviceBusy, "the camera is busy and did not set \(name); try again shortly",
                responseCode: code.rawValue)
        case .devicePropNotSupported:
            return ViewfinderError(.notAvailable, "the camera does not have \(name)", responseCode: code.rawValue)
        default:
            return error
        }
    }

    /// Reads how many more pictures fit on the storages that say, into ``CameraPropertyIdentifier/shotsAvailable``.
    ///
    /// - Throws: Errors that end the session; a camera refusing to tell leaves the property as it was.
    func refreshShotsAvailable() async throws {
        let info = connection.deviceInfo
        guard info.supports(.getStorageIDs), info.supports(.getStorageInfo) else { return }
        var shots: Int64?
        do {
            for id in try await connection.session.storageIDs() {
                let free = try await connection.session.storageInfo(id).freeSpaceInImages
                if free != 0xFFFF_FFFF {
                    shots = (shots ?? 0) + Int64(free)
                }
            }
        } catch let error as ViewfinderError where error.code == .protocolFailure || error.code == .malformedData {
            return
        }
        let value = shots.map { TypedCameraPropertyValue(ShotsAvailableValue(Int($0)), rawValue: .integer($0)) }
        connection.update(.shotsAvailable, currentValue: value, validSettableValues: [])
    }
}
